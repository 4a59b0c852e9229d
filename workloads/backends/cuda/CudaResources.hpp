#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "workloads/backends/cuda/GpuCheck.hpp"
#include "workloads/memory/WorkspaceUse.hpp"

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
// per-row loss terms). Growing never frees the outgrown block under queued work: the
// caller names the stream its work using the block is queued on, and the old block is
// freed only once that stream has passed an event recorded at the growth (polled at later
// calls, so the host never waits; the destructor's cudaFree waits for the device).
// Before, a plain cudaFree was safe only because it synchronizes the device, which a
// stream-ordered or pooled allocator would not do.
class DeviceScratch {
  public:
    // The op in flight holds what it reserves as workspace (counted in `use`; null: not).
    void count_in(WorkspaceUse* use) { use_ = use; }

    void* reserve(std::size_t bytes, cudaStream_t stream) {
        if (use_ != nullptr)
            use_->use(this, bytes);
        release_passed();
        if (bytes > bytes_) {
            if (memory_) {
                retire(stream);
            }
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
    // Outgrown blocks still waiting for their stream (tests).
    std::size_t retired_blocks() const { return retired_.size(); }

  private:
    struct Retired {
        DeviceMemory memory;
        CudaEvent passed;  // recorded after the last work that may use memory
    };

    void retire(cudaStream_t stream) {
        if (keep_outgrown_) {
            outgrown_.push_back(std::move(memory_));
            return;
        }
        CudaEvent passed = make_event(false);
        TS_CUDA_CHECK(cudaEventRecord(passed.get(), stream));
        retired_.push_back({std::move(memory_), std::move(passed)});
    }

    void release_passed() {
        for (auto it = retired_.begin(); it != retired_.end();) {
            const cudaError_t status = cudaEventQuery(it->passed.get());
            if (status == cudaErrorNotReady) {
                (void)cudaGetLastError();  // not an error: keep it out of the next check
                ++it;
                continue;
            }
            TS_CUDA_CHECK(status);
            it = retired_.erase(it);
        }
    }

    DeviceMemory memory_;
    std::size_t bytes_ = 0;
    bool keep_outgrown_ = false;
    std::vector<DeviceMemory> outgrown_;
    std::vector<Retired> retired_;
    WorkspaceUse* use_ = nullptr;
};

}  // namespace trainscope::workloads::cuda
