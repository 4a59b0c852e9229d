#include "workloads/backends/cuda/HostToDeviceCopier.hpp"

#include <cstring>

namespace trainscope::workloads::cuda {

HostToDeviceCopier::HostToDeviceCopier(HostMemory host_memory, TransferMode transfer,
                                       cudaStream_t compute)
    : host_memory_(host_memory), transfer_(transfer), compute_(compute) {
    if (transfer_ == TransferMode::overlap) {
        copy_stream_ = make_stream();
        compute_ready_ = make_event(false);
        for (StagingSlot& slot : slots_) {
            slot.done = make_event(false);
        }
    }
}

void HostToDeviceCopier::copy(const void* host, void* device, std::size_t bytes) {
    if (bytes == 0) {
        return;
    }
    if (host_memory_ == HostMemory::pageable) {
        copy_pageable(host, device, bytes);
    } else if (transfer_ == TransferMode::sync) {
        copy_pinned_sync(host, device, bytes);
    } else {
        copy_pinned_overlap(host, device, bytes);
    }
    bytes_ += static_cast<std::int64_t>(bytes);
}

std::pair<cudaEvent_t, cudaEvent_t> HostToDeviceCopier::timing_pair() {
    if (timing_events_used_ == timing_events_.size()) {
        timing_events_.emplace_back(make_event(true), make_event(true));
    }
    const auto& [start, stop] = timing_events_[timing_events_used_++];
    return {start.get(), stop.get()};
}

void* HostToDeviceCopier::staging(StagingSlot& slot, std::size_t bytes) {
    if (slot.in_flight) {
        // The previous copy out of this buffer must finish before the host overwrites it.
        TS_CUDA_CHECK(cudaEventSynchronize(slot.done.get()));
        slot.in_flight = false;
    }
    if (bytes > slot.capacity) {
        slot.memory.reset();
        slot.capacity = 0;  // consistent if the allocation below throws
        slot.memory = make_pinned_memory(bytes);
        slot.capacity = bytes;
    }
    return slot.memory.get();
}

void HostToDeviceCopier::copy_pageable(const void* host, void* device, std::size_t bytes) {
    const auto [start, stop] = timing_pair();
    TS_CUDA_CHECK(cudaEventRecord(start, compute_));
    TS_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, compute_));
    TS_CUDA_CHECK(cudaEventRecord(stop, compute_));
}

void HostToDeviceCopier::copy_pinned_sync(const void* host, void* device, std::size_t bytes) {
    StagingSlot& slot = slots_[0];
    void* pinned = staging(slot, bytes);
    std::memcpy(pinned, host, bytes);
    const auto [start, stop] = timing_pair();
    TS_CUDA_CHECK(cudaEventRecord(start, compute_));
    TS_CUDA_CHECK(cudaMemcpyAsync(device, pinned, bytes, cudaMemcpyHostToDevice, compute_));
    TS_CUDA_CHECK(cudaEventRecord(stop, compute_));
    TS_CUDA_CHECK(cudaStreamSynchronize(compute_));
}

void HostToDeviceCopier::copy_pinned_overlap(const void* host, void* device, std::size_t bytes) {
    StagingSlot& slot = slots_[next_slot_];
    next_slot_ = (next_slot_ + 1) % slots_.size();
    void* pinned = staging(slot, bytes);
    std::memcpy(pinned, host, bytes);
    // The destination may be memory the compute stream just freed and reused (pool,
    // stream-ordered allocator): the copy waits for the compute stream's work so far.
    TS_CUDA_CHECK(cudaEventRecord(compute_ready_.get(), compute_));
    TS_CUDA_CHECK(cudaStreamWaitEvent(copy_stream_.get(), compute_ready_.get(), 0));
    const auto [start, stop] = timing_pair();
    TS_CUDA_CHECK(cudaEventRecord(start, copy_stream_.get()));
    TS_CUDA_CHECK(
        cudaMemcpyAsync(device, pinned, bytes, cudaMemcpyHostToDevice, copy_stream_.get()));
    TS_CUDA_CHECK(cudaEventRecord(stop, copy_stream_.get()));
    TS_CUDA_CHECK(cudaEventRecord(slot.done.get(), copy_stream_.get()));
    slot.in_flight = true;
    TS_CUDA_CHECK(cudaStreamWaitEvent(compute_, slot.done.get(), 0));
}

void HostToDeviceCopier::collect() {
    for (std::size_t i = 0; i < timing_events_used_; ++i) {
        const auto& [start, stop] = timing_events_[i];
        float elapsed_ms = 0.0f;
        TS_CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, start.get(), stop.get()));
        time_ms_ += static_cast<double>(elapsed_ms);
    }
    timing_events_used_ = 0;
}

}  // namespace trainscope::workloads::cuda
