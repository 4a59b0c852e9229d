#pragma once

#include <cstddef>
#include <string>

#include "workloads/backend/BackendRegistry.hpp"

namespace trainscope::workloads::cuda {

// The engine's axis types (workloads/backend/MemoryStrategy.hpp), by the names this
// backend has always used. Where tensor memory comes from: `pool` is the engine's
// CachingPool over the same cudaMalloc allocator as `device`, so the backend's own
// allocator is then cudaMalloc. resident: the engine's BatchLoader uploads the dataset
// once and gathers batches with gather_rows; the backend only validates and records it.
using DeviceAllocation = workloads::Allocator;
using HostMemory = workloads::HostMemory;
using TransferMode = workloads::Transfer;
using DataPlacement = workloads::Placement;
using workloads::to_string;

// The CUDA backend's run options, validated: the engine leaves the memory axes of a
// non-CPU backend to the backend.
struct CudaRunOptions {
    int device = 0;
    DeviceAllocation allocation = DeviceAllocation::device;
    HostMemory host_memory = HostMemory::pageable;
    TransferMode transfer = TransferMode::sync;
    DataPlacement placement = DataPlacement::stream;
    // Capture one training step into a CUDA graph and replay it (StepGraph).
    bool cuda_graph = false;
    bool exhaustive_algorithms = false;
    std::size_t workspace_limit_bytes = 256u << 20;
};

// Throws ConfigError naming the parameter for a combination this backend does not run
// (transfer=overlap from pageable memory; cuda_graph with allocator=managed says why).
CudaRunOptions parse_cuda_run_options(const BackendOptions& options);

}  // namespace trainscope::workloads::cuda
