#pragma once

#include <cstddef>
#include <memory>

#include "workloads/tensor/DType.hpp"
#include "workloads/tensor/Shape.hpp"
#include "workloads/tensor/TensorClass.hpp"

namespace trainscope::workloads {

class TensorAllocator;

// One allocation of backend memory, returned to its allocator when the last tensor
// viewing it goes away.
class TensorStorage {
  public:
    TensorStorage(TensorAllocator& owner, void* data, std::size_t bytes, TensorClass tensor_class)
        : owner_(&owner), data_(data), bytes_(bytes), tensor_class_(tensor_class) {}
    ~TensorStorage();
    TensorStorage(const TensorStorage&) = delete;
    TensorStorage& operator=(const TensorStorage&) = delete;

    void* data() const { return data_; }
    std::size_t bytes() const { return bytes_; }
    TensorClass tensor_class() const { return tensor_class_; }

  private:
    TensorAllocator* owner_;
    void* data_;
    std::size_t bytes_;
    TensorClass tensor_class_;
};

// A handle to a dense, contiguous array in backend memory. Copying the handle shares
// the memory (a layer saving its input for backward costs nothing); contents move
// between host and backend only through the backend's explicit copy operations. The
// pointer is a backend address: only that backend's kernels dereference it. A tensor may
// be a view of part of a larger storage (view()): parameters, their gradients and their
// optimizer state are views into one flat buffer per role and dtype
// (layers/FlatParameters.hpp); a view keeps its storage alive like any handle.
class Tensor {
  public:
    Tensor() = default;
    Tensor(std::shared_ptr<TensorStorage> storage, Shape shape, DType dtype)
        : storage_(std::move(storage)), shape_(shape), dtype_(dtype) {}

    bool empty() const { return storage_ == nullptr; }
    const Shape& shape() const { return shape_; }
    DType dtype() const { return dtype_; }
    std::int64_t elements() const { return shape_.elements(); }
    std::size_t bytes() const { return static_cast<std::size_t>(elements()) * dtype_bytes(dtype_); }
    void* raw() const {
        return storage_ ? static_cast<char*>(storage_->data()) + offset_bytes_ : nullptr;
    }
    // Where raw() lies in the storage, in bytes from its start (0 unless a view).
    std::size_t offset_bytes() const { return offset_bytes_; }
    // What the storage is for (a view shares its storage's class).
    TensorClass tensor_class() const {
        return storage_ ? storage_->tensor_class() : TensorClass::other;
    }
    template <typename T>
    T* data() const {
        return static_cast<T*>(raw());
    }
    // The same memory seen with another shape of the same element count.
    Tensor reshaped(const Shape& shape) const;
    // The elements [element_offset, element_offset + shape.elements()) of this tensor, same
    // dtype, seen with `shape`; throws std::logic_error when they reach past this tensor.
    Tensor view(std::int64_t element_offset, const Shape& shape) const;

  private:
    std::shared_ptr<TensorStorage> storage_;
    Shape shape_;
    DType dtype_ = DType::f32;
    std::size_t offset_bytes_ = 0;
};

}  // namespace trainscope::workloads
