#include "workloads/memory/CachingPool.hpp"

#include <algorithm>
#include <bit>

namespace trainscope::workloads {

CachingPool::~CachingPool() {
    release_cached();
}

std::size_t CachingPool::size_class_bytes(std::size_t bytes) {
    constexpr std::size_t kMinimumBytes = 256;
    if (bytes <= kMinimumBytes) {
        return kMinimumBytes;
    }
    const std::size_t power = std::bit_floor(bytes);
    const std::size_t step = power / 4;
    return (bytes + step - 1) / step * step;
}

bool CachingPool::has_cached_block(std::size_t bytes) const {
    const auto found = free_blocks_.find(size_class_bytes(bytes));
    return found != free_blocks_.end() && !found->second.empty();
}

void* CachingPool::allocate(std::size_t bytes, TensorClass tensor_class) {
    const std::size_t block = size_class_bytes(bytes);
    void* data = take_block(block, tensor_class);
    in_use_bytes_ += static_cast<std::int64_t>(block);
    in_use_by_class_[tensor_class_index(tensor_class)] += static_cast<std::int64_t>(block);
    return data;
}

void* CachingPool::take_block(std::size_t block, TensorClass tensor_class) {
    auto found = free_blocks_.find(block);
    if (found != free_blocks_.end() && !found->second.empty()) {
        void* data = found->second.back();
        found->second.pop_back();
        ++reused_blocks_;
        return data;
    }
    void* data = nullptr;
    try {
        data = upstream_->allocate(block, tensor_class);
    } catch (...) {
        // Out of memory upstream: give the cache back and try once more.
        release_cached();
        data = upstream_->allocate(block, tensor_class);
    }
    ++upstream_allocations_;
    reserved_bytes_ += static_cast<std::int64_t>(block);
    high_water_bytes_ = std::max(high_water_bytes_, reserved_bytes_);
    return data;
}

void CachingPool::deallocate(void* data, std::size_t bytes, TensorClass tensor_class) noexcept {
    const std::size_t block = size_class_bytes(bytes);
    in_use_bytes_ -= static_cast<std::int64_t>(block);
    in_use_by_class_[tensor_class_index(tensor_class)] -= static_cast<std::int64_t>(block);
    try {
        free_blocks_[block].push_back(data);
    } catch (...) {
        // No room to remember the block: hand it back instead of leaking it.
        upstream_->deallocate(data, block, tensor_class);
        reserved_bytes_ -= static_cast<std::int64_t>(block);
    }
}

void CachingPool::release_cached() noexcept {
    for (auto& [block, blocks] : free_blocks_) {
        for (void* data : blocks) {
            // A cached block belongs to no tensor any more.
            upstream_->deallocate(data, block, TensorClass::other);
            reserved_bytes_ -= static_cast<std::int64_t>(block);
        }
        blocks.clear();
    }
}

std::string CachingPool::name() const {
    return "pool(" + upstream_->name() + ")";
}

}  // namespace trainscope::workloads
