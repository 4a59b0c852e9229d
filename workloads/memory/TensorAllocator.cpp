#include "workloads/memory/TensorAllocator.hpp"

#include <algorithm>

namespace trainscope::workloads {

Tensor TensorAllocator::allocate(const Shape& shape, DType dtype) {
    const std::size_t bytes = static_cast<std::size_t>(shape.elements()) * dtype_bytes(dtype);
    // Zero-element tensors still get a distinct block so every tensor has an address.
    const std::size_t stored_bytes = std::max<std::size_t>(bytes, 1);
    void* data = source_->allocate(stored_bytes);
    std::shared_ptr<TensorStorage> storage;
    try {
        storage = std::allocate_shared<TensorStorage>(StorageBlockAllocator<TensorStorage>(blocks_),
                                                      *this, data, stored_bytes);
    } catch (...) {
        source_->deallocate(data, stored_bytes);
        throw;
    }
    live_bytes_ += static_cast<std::int64_t>(stored_bytes);
    peak_bytes_ = std::max(peak_bytes_, live_bytes_);
    ++allocations_;
    return Tensor(std::move(storage), shape, dtype);
}

void TensorAllocator::release(void* data, std::size_t bytes) noexcept {
    source_->deallocate(data, bytes);
    live_bytes_ -= static_cast<std::int64_t>(bytes);
    ++releases_;
}

}  // namespace trainscope::workloads
