#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "workloads/tensor/Tensor.hpp"

namespace trainscope::workloads {

// What one step's gradient averaging cost one rank (docs/distributed.md defines them):
// communication is the sum of the all-reduces' spans, start to completion; exposed is the
// part of the step that waited for them after the backward pass had finished.
struct CommunicationTimes {
    std::int64_t communication_ns = 0;
    std::int64_t exposed_ns = 0;
    std::int64_t all_reduces = 0;
    std::int64_t bytes = 0;
};

// The collectives data-parallel training needs, over one group of ranks. Implemented by
// MPI (CPU backend: host memory) and NCCL (CUDA backend: device memory, its own stream).
// Every rank must issue the same collectives in the same order, as in MPI and NCCL.
// Gradient averaging is asynchronous: start_all_reduce_mean() queues one buffer, and
// wait_all() returns when every queued buffer may be read by the backend's next queued
// work (the CPU: the values are there; CUDA: the compute stream waits on the device).
class Communicator {
  public:
    virtual ~Communicator() = default;
    Communicator() = default;
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;

    virtual int rank() const = 0;
    virtual int size() const = 0;
    // The rank among those on this node (picks the GPU).
    virtual int local_rank() const = 0;
    // "MPI" or "NCCL", for the run's environment.
    virtual std::string library() const = 0;

    // Starts averaging `tensor` (contiguous, f32 or f64; NCCL also f16/bf16) in place across
    // the ranks: the sum over ranks divided by size(). Queued behind the backend's work so
    // far (the gradients are complete).
    virtual void start_all_reduce_mean(const Tensor& tensor) = 0;
    // Lets queued all-reduces progress without blocking (MPI progresses only inside its
    // calls); a no-op where the library progresses on its own.
    virtual void progress() {}
    // Returns once the backend may use every started all-reduce's result.
    virtual void wait_all() = 0;
    // The times of the all-reduces since the last call; after Backend::synchronize().
    virtual CommunicationTimes take_step_times() = 0;

    // Host-side, blocking: the element-wise sum over ranks, in place.
    virtual void all_reduce_sum(std::span<double> values) = 0;
    virtual void broadcast(std::span<std::byte> bytes, int root) = 0;
    virtual void barrier() = 0;
};

}  // namespace trainscope::workloads
