#include "workloads/backends/cuda/StreamIntervalTimer.hpp"

namespace trainscope::workloads::cuda {

void StreamIntervalTimer::mark(cudaStream_t stream) {
    if (current_) {
        previous_ = std::move(current_);
    }
    current_ = make_event(true);
    TS_CUDA_CHECK(cudaEventRecord(current_.get(), stream));
}

void StreamIntervalTimer::collect() {
    if (!previous_ || !current_) {
        return;
    }
    float elapsed_ms = 0.0f;
    TS_CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, previous_.get(), current_.get()));
    total_ms_ += static_cast<double>(elapsed_ms);
    ++intervals_;
    previous_.reset();
}

}  // namespace trainscope::workloads::cuda
