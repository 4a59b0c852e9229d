#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "workloads/memory/CachingPool.hpp"
#include "workloads/memory/RawAllocator.hpp"

namespace trainscope::workloads {

// The memory of a training step captured into a CUDA graph (cuda_graph=true). The graph
// replays kernels with the addresses they had at capture, so every tensor the step makes
// must sit at an address that nothing else writes for the graph's whole life: the arena
// serves only the step's own tensors (evaluation and the dataset use the run's normal
// allocator), and it never gives a block back upstream until it dies.
//
// Eager warm-up steps fill it (a CachingPool over the run's allocator); once sealed (for
// the capture), a request its free blocks cannot serve throws std::logic_error instead
// of reaching upstream, because cudaMalloc is illegal inside stream capture and a stream-ordered
// cudaMallocAsync there would turn into graph-owned memory. The captured step repeats
// the warm-up step's requests in the same order, so after one warm-up step through the
// arena every request is served from its cache.
class StepArena final : public RawAllocator {
  public:
    explicit StepArena(RawAllocator& upstream) : pool_(upstream) {}
    StepArena(const StepArena&) = delete;
    StepArena& operator=(const StepArena&) = delete;

    void* allocate(std::size_t bytes, TensorClass tensor_class) override;
    void deallocate(void* data, std::size_t bytes, TensorClass tensor_class) noexcept override {
        pool_.deallocate(data, bytes, tensor_class);
    }
    std::string name() const override { return "step_arena(" + pool_.name() + ")"; }

    void seal() { sealed_ = true; }
    bool sealed() const { return sealed_; }
    // Bytes held from upstream (blocks in use and cached): what the captured graph keeps.
    std::int64_t reserved_bytes() const { return pool_.reserved_bytes(); }
    std::int64_t upstream_allocations() const { return pool_.upstream_allocations(); }

  private:
    CachingPool pool_;
    bool sealed_ = false;
};

}  // namespace trainscope::workloads
