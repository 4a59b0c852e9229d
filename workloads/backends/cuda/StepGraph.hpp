#pragma once

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "workloads/backends/cuda/CapturedAdamScalars.hpp"
#include "workloads/backends/cuda/CudaGraphResources.hpp"
#include "workloads/backends/cuda/CudaResources.hpp"

namespace trainscope::workloads::cuda {

// One training step captured into a CUDA graph on the compute stream and replayed
// (cuda_graph=true). The capture uses cudaStreamCaptureModeThreadLocal: a call on this
// thread that could make the captured graph wrong (cudaMalloc, a synchronization, a
// query) fails the capture instead of silently escaping it, while threads of a tracer
// are not affected. The graph has no memory nodes: its tensors live in the engine's
// StepArena, its scratch in the backend's grow-only buffers, which keep old blocks once a
// graph exists. Per-step scalars (Adam's bias correction) are read by the captured
// kernels from a small device block that an ordinary copy from pinned staging refreshes
// on the stream right before each launch.
class StepGraph {
  public:
    explicit StepGraph(cudaStream_t stream);
    ~StepGraph() { abandon_capture(); }
    StepGraph(const StepGraph&) = delete;
    StepGraph& operator=(const StepGraph&) = delete;

    bool capturing() const { return capturing_; }
    bool captured() const { return static_cast<bool>(exec_); }

    // Starts a capture; one made before is discarded (its last launch must be done), and
    // with it the Adam slots, which the new capture registers afresh.
    void begin_capture();
    // Ends a capture an exception left open, discarding it, so the stream can be
    // synchronized and destroyed; nothing to do otherwise.
    void abandon_capture() noexcept;
    // Ends the capture, instantiates and uploads the graph, then launches it once: the
    // captured step has not run yet.
    void end_capture_and_launch();
    // Launches the graph again as the next step (Adam constants moved one step on: the
    // previous launch applied its updates, or the engine would have recaptured).
    void replay();

    // During capture: the device address captured Adam kernels read their constants
    // from (filled before every launch).
    template <typename T>
    const math::AdamConstants<T>* adam_constants(const AdamSettings& settings, double grad_factor) {
        const std::size_t offset =
            adam_.slot_offset(std::is_same_v<T, double>, settings, grad_factor);
        return reinterpret_cast<const math::AdamConstants<T>*>(
            static_cast<const std::byte*>(constants_.get()) + offset);
    }

    // The device block captured kernels read (any slot; for loading kernels early).
    const void* constants_block() const { return constants_.get(); }
    // Of the latest capture; captures() counts them (fp16 recaptures on a new loss scale).
    double capture_ms() const { return capture_ms_; }
    std::int64_t captures() const { return captures_; }
    std::size_t nodes() const { return nodes_; }
    std::int64_t replays() const { return replays_; }

  private:
    void launch();

    cudaStream_t stream_;
    CapturedAdamScalars adam_;
    PinnedMemory staging_;
    DeviceMemory constants_;
    CudaGraph graph_;
    CudaGraphExec exec_;
    bool capturing_ = false;
    std::chrono::steady_clock::time_point capture_started_;
    double capture_ms_ = 0.0;
    std::size_t nodes_ = 0;
    std::int64_t captures_ = 0;
    std::int64_t replays_ = 0;
};

}  // namespace trainscope::workloads::cuda
