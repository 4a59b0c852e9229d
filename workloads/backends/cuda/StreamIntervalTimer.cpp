#include "workloads/backends/cuda/StreamIntervalTimer.hpp"

#include <utility>

namespace trainscope::workloads::cuda {

void StreamIntervalTimer::mark(cudaStream_t stream) {
    if (!current_) {
        previous_ = make_event(true);
        current_ = make_event(true);
    }
    if (current_recorded_) {
        std::swap(previous_, current_);
        previous_recorded_ = true;
    }
    TS_CUDA_CHECK(cudaEventRecord(current_.get(), stream));
    current_recorded_ = true;
}

void StreamIntervalTimer::collect() {
    if (!previous_recorded_ || !current_recorded_) {
        return;
    }
    float elapsed_ms = 0.0f;
    TS_CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, previous_.get(), current_.get()));
    total_ms_ += static_cast<double>(elapsed_ms);
    ++intervals_;
    previous_recorded_ = false;
}

}  // namespace trainscope::workloads::cuda
