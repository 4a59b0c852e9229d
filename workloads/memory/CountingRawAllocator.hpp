#pragma once

#include <cstdint>
#include <string>

#include "workloads/memory/RawAllocator.hpp"

namespace trainscope::workloads {

// Passes every call to the backend's own allocator and counts them: the allocations a
// pool above it could not serve from its cache (cudaMalloc/cudaFree on CUDA).
class CountingRawAllocator final : public RawAllocator {
  public:
    explicit CountingRawAllocator(RawAllocator& inner) : inner_(&inner) {}

    void* allocate(std::size_t bytes, TensorClass tensor_class) override {
        void* data = inner_->allocate(bytes, tensor_class);
        ++allocations_;
        return data;
    }
    void deallocate(void* data, std::size_t bytes, TensorClass tensor_class) noexcept override {
        inner_->deallocate(data, bytes, tensor_class);
        ++frees_;
    }
    std::string name() const override { return inner_->name(); }

    std::int64_t allocations() const { return allocations_; }
    std::int64_t frees() const { return frees_; }

  private:
    RawAllocator* inner_;
    std::int64_t allocations_ = 0;
    std::int64_t frees_ = 0;
};

}  // namespace trainscope::workloads
