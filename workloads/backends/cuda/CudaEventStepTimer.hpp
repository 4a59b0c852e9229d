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
// The events are the backend's (StepTimerEvents), made once: starting a timer creates no
// CUDA object. One timer runs at a time (the engine times one step after another); a
// second would re-record the first one's events.
struct StepTimerEvents {
    CudaEvent start = make_event(true);
    CudaEvent stop = make_event(true);
};

class CudaEventStepTimer final : public StepTimer {
  public:
    CudaEventStepTimer(cudaStream_t stream, const StepTimerEvents& events);
    // Records the stop event on the compute stream; the host does not wait.
    void close() override;
    // Waits for the stop event and returns the time between the events (their resolution
    // is about half a microsecond). Work queued on the stream after close() (the next
    // batch's copy) is not counted.
    std::int64_t elapsed_ns() override;

  private:
    cudaStream_t stream_;
    cudaEvent_t start_;
    cudaEvent_t stop_;
};

}  // namespace trainscope::workloads::cuda
