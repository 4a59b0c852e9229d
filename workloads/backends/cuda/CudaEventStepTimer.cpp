#include "workloads/backends/cuda/CudaEventStepTimer.hpp"

#include <cmath>

namespace trainscope::workloads::cuda {

CudaEventStepTimer::CudaEventStepTimer(cudaStream_t stream, const StepTimerEvents& events)
    : stream_(stream), start_(events.start.get()), stop_(events.stop.get()) {
    TS_CUDA_CHECK(cudaEventRecord(start_, stream_));
}

void CudaEventStepTimer::close() {
    TS_CUDA_CHECK(cudaEventRecord(stop_, stream_));
}

std::int64_t CudaEventStepTimer::elapsed_ns() {
    TS_CUDA_CHECK(cudaEventSynchronize(stop_));
    float elapsed_ms = 0.0f;
    TS_CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, start_, stop_));
    return std::llround(static_cast<double>(elapsed_ms) * 1e6);
}

}  // namespace trainscope::workloads::cuda
