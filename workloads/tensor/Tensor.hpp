#pragma once

#include <cstddef>
#include <memory>

#include "workloads/tensor/DType.hpp"
#include "workloads/tensor/Shape.hpp"

namespace trainscope::workloads {

class TensorAllocator;

// One allocation of backend memory, returned to its allocator when the last tensor
// viewing it goes away.
class TensorStorage {
  public:
    TensorStorage(TensorAllocator& owner, void* data, std::size_t bytes)
        : owner_(&owner), data_(data), bytes_(bytes) {}
    ~TensorStorage();
    TensorStorage(const TensorStorage&) = delete;
    TensorStorage& operator=(const TensorStorage&) = delete;

    void* data() const { return data_; }
    std::size_t bytes() const { return bytes_; }

  private:
    TensorAllocator* owner_;
    void* data_;
    std::size_t bytes_;
};

// A handle to a dense, contiguous array in backend memory. Copying the handle shares
// the memory (a layer saving its input for backward costs nothing); contents move
// between host and backend only through the backend's explicit copy operations. The
// pointer is a backend address: only that backend's kernels dereference it.
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
    void* raw() const { return storage_ ? storage_->data() : nullptr; }
    template <typename T>
    T* data() const {
        return static_cast<T*>(raw());
    }
    // The same memory seen with another shape of the same element count.
    Tensor reshaped(const Shape& shape) const;

  private:
    std::shared_ptr<TensorStorage> storage_;
    Shape shape_;
    DType dtype_ = DType::f32;
};

}  // namespace trainscope::workloads
