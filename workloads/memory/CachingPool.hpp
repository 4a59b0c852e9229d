#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "workloads/memory/RawAllocator.hpp"

namespace trainscope::workloads {

// A caching allocator over any backend's raw allocator: freed blocks stay reserved in
// per-size-class free lists and serve later requests of the same class, so a training
// loop whose tensor sizes repeat stops calling the backend after its first step.
// Size classes are powers of two split in four (at most 25% slack). Not thread-safe:
// tensors are made by the one thread that drives training. A cached block serves a
// request of any tensor class; the bytes in use are kept per class (block sizes, so what
// the pool holds for each class, slack included).
class CachingPool final : public RawAllocator {
  public:
    explicit CachingPool(RawAllocator& upstream) : upstream_(&upstream) {}
    ~CachingPool() override;
    CachingPool(const CachingPool&) = delete;
    CachingPool& operator=(const CachingPool&) = delete;

    void* allocate(std::size_t bytes, TensorClass tensor_class) override;
    void deallocate(void* data, std::size_t bytes, TensorClass tensor_class) noexcept override;
    std::string name() const override;

    // Returns every cached block to the upstream allocator.
    void release_cached() noexcept;

    static std::size_t size_class_bytes(std::size_t bytes);
    // Whether allocate(bytes) would be served from the cache, without asking upstream.
    bool has_cached_block(std::size_t bytes) const;

    std::int64_t reserved_bytes() const { return reserved_bytes_; }
    std::int64_t in_use_bytes() const { return in_use_bytes_; }
    std::int64_t in_use_bytes(TensorClass tensor_class) const {
        return in_use_by_class_[tensor_class_index(tensor_class)];
    }
    // Most bytes ever reserved from upstream at once.
    std::int64_t high_water_bytes() const { return high_water_bytes_; }
    std::int64_t upstream_allocations() const { return upstream_allocations_; }
    std::int64_t reused_blocks() const { return reused_blocks_; }

  private:
    // A free block of the class's size, or a new one from upstream.
    void* take_block(std::size_t block, TensorClass tensor_class);

    RawAllocator* upstream_;
    std::unordered_map<std::size_t, std::vector<void*>> free_blocks_;
    std::int64_t reserved_bytes_ = 0;
    std::int64_t in_use_bytes_ = 0;
    ClassBytes in_use_by_class_{};
    std::int64_t high_water_bytes_ = 0;
    std::int64_t upstream_allocations_ = 0;
    std::int64_t reused_blocks_ = 0;
};

}  // namespace trainscope::workloads
