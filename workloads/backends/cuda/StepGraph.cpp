#include "workloads/backends/cuda/StepGraph.hpp"

#include <chrono>
#include <stdexcept>

namespace trainscope::workloads::cuda {
StepGraph::StepGraph(cudaStream_t stream)
    : stream_(stream),
      staging_(make_pinned_memory(CapturedAdamScalars::kBlockBytes)),
      constants_(make_device_memory(CapturedAdamScalars::kBlockBytes)) {}

void StepGraph::abandon_capture() noexcept {
    if (!capturing_) {
        return;
    }
    capturing_ = false;
    cudaGraph_t abandoned = nullptr;
    TS_CUDA_CHECK_NOEXCEPT(cudaStreamEndCapture(stream_, &abandoned));
    if (abandoned != nullptr) {
        TS_CUDA_CHECK_NOEXCEPT(cudaGraphDestroy(abandoned));
    }
}

void StepGraph::begin_capture() {
    if (capturing_) {
        throw std::logic_error("cuda backend: begin_step_capture while capturing");
    }
    exec_.reset();
    graph_.reset();
    adam_ = CapturedAdamScalars();
    capture_started_ = std::chrono::steady_clock::now();
    TS_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    capturing_ = true;
}

void StepGraph::end_capture_and_launch() {
    if (!capturing_) {
        throw std::logic_error("cuda backend: end_step_capture without begin_step_capture");
    }
    cudaGraph_t graph = nullptr;
    capturing_ = false;
    // A capture invalidated by a prohibited call fails here (and returns no graph).
    TS_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
    graph_.reset(graph);
    nodes_ = node_count(graph_.get());
    exec_ = instantiate(graph_.get());
    // Uploading now keeps the one-time upload out of the first launch.
    TS_CUDA_CHECK(cudaGraphUpload(exec_.get(), stream_));
    capture_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                            capture_started_)
                      .count();
    ++captures_;
    launch();
}

void StepGraph::replay() {
    if (!captured()) {
        throw std::logic_error("cuda backend: replay_step before a step was captured");
    }
    adam_.advance();
    launch();
    ++replays_;
}

void StepGraph::launch() {
    if (adam_.slots() > 0) {
        // The previous launch's copy has finished reading the staging buffer: every step
        // ends in a synchronization before the engine starts the next one.
        auto* staging = static_cast<std::byte*>(staging_.get());
        adam_.write(staging);
        TS_CUDA_CHECK(cudaMemcpyAsync(constants_.get(), staging, CapturedAdamScalars::kBlockBytes,
                                      cudaMemcpyHostToDevice, stream_));
    }
    TS_CUDA_CHECK(cudaGraphLaunch(exec_.get(), stream_));
}

}  // namespace trainscope::workloads::cuda
