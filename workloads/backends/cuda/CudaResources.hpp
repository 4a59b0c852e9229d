#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "workloads/backends/cuda/GpuCheck.hpp"

// Move-only owners of CUDA runtime objects, one std::unique_ptr per resource so a
// constructor that throws half-way still releases what it made.
namespace trainscope::workloads::cuda {

struct StreamDeleter {
    using pointer = cudaStream_t;
    void operator()(cudaStream_t stream) const noexcept {
        TS_CUDA_CHECK_NOEXCEPT(cudaStreamDestroy(stream));
    }
};
using CudaStream = std::unique_ptr<std::remove_pointer_t<cudaStream_t>, StreamDeleter>;

struct EventDeleter {
    using pointer = cudaEvent_t;
    void operator()(cudaEvent_t event) const noexcept {
        TS_CUDA_CHECK_NOEXCEPT(cudaEventDestroy(event));
    }
};
using CudaEvent = std::unique_ptr<std::remove_pointer_t<cudaEvent_t>, EventDeleter>;

struct DeviceMemoryDeleter {
    using pointer = void*;
    void operator()(void* data) const noexcept { TS_CUDA_CHECK_NOEXCEPT(cudaFree(data)); }
};
using DeviceMemory = std::unique_ptr<void, DeviceMemoryDeleter>;

struct PinnedMemoryDeleter {
    using pointer = void*;
    void operator()(void* data) const noexcept { TS_CUDA_CHECK_NOEXCEPT(cudaFreeHost(data)); }
};
using PinnedMemory = std::unique_ptr<void, PinnedMemoryDeleter>;

inline CudaStream make_stream() {
    cudaStream_t stream = nullptr;
    TS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    return CudaStream(stream);
}

// Timing events record time; ordering-only events are cheaper without it.
inline CudaEvent make_event(bool timing) {
    cudaEvent_t event = nullptr;
    TS_CUDA_CHECK(
        cudaEventCreateWithFlags(&event, timing ? cudaEventDefault : cudaEventDisableTiming));
    return CudaEvent(event);
}

inline DeviceMemory make_device_memory(std::size_t bytes) {
    void* data = nullptr;
    TS_CUDA_CHECK(cudaMalloc(&data, bytes));
    return DeviceMemory(data);
}

inline PinnedMemory make_pinned_memory(std::size_t bytes) {
    void* data = nullptr;
    TS_CUDA_CHECK(cudaHostAlloc(&data, bytes, cudaHostAllocDefault));
    return PinnedMemory(data);
}

// Device scratch that grows to the largest request and is reused (cuDNN workspaces,
// per-row loss terms).
class DeviceScratch {
  public:
    void* reserve(std::size_t bytes) {
        if (bytes > bytes_) {
            if (keep_outgrown_ && memory_) {
                outgrown_.push_back(std::move(memory_));
            }
            memory_.reset();
            bytes_ = 0;  // consistent if the allocation below throws
            memory_ = make_device_memory(bytes);
            bytes_ = bytes;
        }
        return memory_.get();
    }
    void* get() const { return memory_.get(); }
    std::size_t bytes() const { return bytes_; }
    // From now on a block outgrown by a larger request stays allocated until this scratch
    // dies: a captured CUDA graph may still use its address.
    void keep_outgrown_blocks() { keep_outgrown_ = true; }

  private:
    DeviceMemory memory_;
    std::size_t bytes_ = 0;
    bool keep_outgrown_ = false;
    std::vector<DeviceMemory> outgrown_;
};

}  // namespace trainscope::workloads::cuda
