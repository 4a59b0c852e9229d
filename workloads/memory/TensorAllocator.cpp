#include "workloads/memory/TensorAllocator.hpp"

#include <algorithm>

namespace trainscope::workloads {

Tensor TensorAllocator::allocate(const Shape& shape, DType dtype, TensorClass tensor_class) {
    const std::size_t bytes = static_cast<std::size_t>(shape.elements()) * dtype_bytes(dtype);
    // Zero-element tensors still get a distinct block so every tensor has an address.
    const std::size_t stored_bytes = std::max<std::size_t>(bytes, 1);
    void* data = source_->allocate(stored_bytes, tensor_class);
    std::shared_ptr<TensorStorage> storage;
    try {
        storage = std::allocate_shared<TensorStorage>(StorageBlockAllocator<TensorStorage>(blocks_),
                                                      *this, data, stored_bytes, tensor_class);
    } catch (...) {
        source_->deallocate(data, stored_bytes, tensor_class);
        throw;
    }
    live_bytes_ += static_cast<std::int64_t>(stored_bytes);
    peak_bytes_ = std::max(peak_bytes_, live_bytes_);
    ++allocations_;
    ledger_->allocated(tensor_class, static_cast<std::int64_t>(stored_bytes));
    return Tensor(std::move(storage), shape, dtype);
}

void TensorAllocator::release(void* data, std::size_t bytes, TensorClass tensor_class) noexcept {
    source_->deallocate(data, bytes, tensor_class);
    live_bytes_ -= static_cast<std::int64_t>(bytes);
    ledger_->released(tensor_class, static_cast<std::int64_t>(bytes));
    ++releases_;
}

}  // namespace trainscope::workloads
