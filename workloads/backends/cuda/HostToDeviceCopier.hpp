#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "workloads/backends/cuda/CudaResources.hpp"
#include "workloads/backends/cuda/CudaRunOptions.hpp"

namespace trainscope::workloads::cuda {

// Host-to-device copies under the host_memory and transfer axes:
// - pageable + sync: cudaMemcpyAsync straight from the caller's buffer on the compute
//   stream (the runtime stages pageable memory itself and returns once it has).
// - pinned + sync: the bytes go through a cudaHostAlloc staging buffer and the host
//   waits for the DMA before returning.
// - pinned + overlap: two pinned staging buffers alternate; the DMA runs on a separate
//   copy stream, the compute stream waits on an event instead of the host, so the host
//   prepares the next batch while this one is in flight.
// Every copy is bracketed by timing events; the H2D time is summed at collect().
class HostToDeviceCopier {
  public:
    HostToDeviceCopier(HostMemory host_memory, TransferMode transfer, cudaStream_t compute);

    void copy(const void* host, void* device, std::size_t bytes);
    // After the device is idle: adds the finished copies' event times to the totals.
    void collect();
    std::int64_t bytes() const { return bytes_; }
    double time_ms() const { return time_ms_; }

  private:
    struct StagingSlot {
        PinnedMemory memory;
        std::size_t capacity = 0;
        CudaEvent done;
        bool in_flight = false;
    };

    void* staging(StagingSlot& slot, std::size_t bytes);
    void copy_pageable(const void* host, void* device, std::size_t bytes);
    void copy_pinned_sync(const void* host, void* device, std::size_t bytes);
    void copy_pinned_overlap(const void* host, void* device, std::size_t bytes);
    std::pair<cudaEvent_t, cudaEvent_t> timing_pair();

    HostMemory host_memory_;
    TransferMode transfer_;
    cudaStream_t compute_;
    CudaStream copy_stream_;
    CudaEvent compute_ready_;
    std::array<StagingSlot, 2> slots_;
    std::size_t next_slot_ = 0;
    // Timing event pairs, made as the copies of the first steps need them and reused
    // after each collect(): a step's copies create no events once warm.
    std::vector<std::pair<CudaEvent, CudaEvent>> timing_events_;
    std::size_t timing_events_used_ = 0;
    std::int64_t bytes_ = 0;
    double time_ms_ = 0.0;
};

}  // namespace trainscope::workloads::cuda
