#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "workloads/backends/cuda/CudaResources.hpp"

namespace trainscope::workloads::cuda {

// Times the compute stream between consecutive synchronize() calls (one training step
// each in the engine) with CUDA events: device time, free of host jitter.
class StreamIntervalTimer {
  public:
    // Records a mark on `stream`; call before the host waits for the stream.
    void mark(cudaStream_t stream);
    // After the stream is idle: folds the last interval into the totals.
    void collect();
    std::int64_t intervals() const { return intervals_; }
    double total_ms() const { return total_ms_; }

  private:
    // Two events made at the first mark and swapped from then on: no event is created
    // per interval.
    CudaEvent previous_;
    CudaEvent current_;
    bool previous_recorded_ = false;
    bool current_recorded_ = false;
    std::int64_t intervals_ = 0;
    double total_ms_ = 0.0;
};

}  // namespace trainscope::workloads::cuda
