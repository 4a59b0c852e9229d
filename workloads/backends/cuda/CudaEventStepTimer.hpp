#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "workloads/backend/StepTimer.hpp"
#include "workloads/backends/cuda/CudaResources.hpp"

namespace trainscope::workloads::cuda {

// A step timed on the device's clock: timing events recorded on the compute stream
// when the step starts and when it stops. The stream is idle when a step starts (the
// previous one ended in synchronize()), so the start event completes at once and the
// elapsed time covers the step up to its last queued operation, idle gaps included,
// without the host's wake-up after it. Work on other streams counts where the compute
// stream waits for it (the overlap copier makes it wait for each input copy).
//
// The backend keeps one timer and restarts it for each step (start()); its two events are
// made once, so opening a step's window creates no CUDA object and allocates nothing on the
// host. One step is timed at a time: a restart re-records the events.
class CudaEventStepTimer final : public StepTimer {
  public:
    explicit CudaEventStepTimer(cudaStream_t stream) : stream_(stream) {}
    // Records the start event on the compute stream.
    void start();
    // Records the stop event on the compute stream; the host does not wait.
    void close() override;
    // Waits for the stop event and returns the time between the events (their resolution
    // is about half a microsecond). Work queued on the stream after close() (the next
    // batch's copy) is not counted.
    std::int64_t elapsed_ns() override;

  private:
    cudaStream_t stream_;
    CudaEvent start_ = make_event(true);
    CudaEvent stop_ = make_event(true);
};

}  // namespace trainscope::workloads::cuda
