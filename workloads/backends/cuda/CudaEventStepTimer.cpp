#include "workloads/backends/cuda/CudaEventStepTimer.hpp"

#include <cmath>

namespace trainscope::workloads::cuda {

void CudaEventStepTimer::start() {
    TS_CUDA_CHECK(cudaEventRecord(start_.get(), stream_));
}

void CudaEventStepTimer::close() {
    TS_CUDA_CHECK(cudaEventRecord(stop_.get(), stream_));
}

std::int64_t CudaEventStepTimer::elapsed_ns() {
    TS_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
    float elapsed_ms = 0.0f;
    TS_CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, start_.get(), stop_.get()));
    return std::llround(static_cast<double>(elapsed_ms) * 1e6);
}

}  // namespace trainscope::workloads::cuda
