#pragma once

#include <cstddef>
#include <string>

#include "workloads/backend/BackendRegistry.hpp"

namespace trainscope::workloads::cuda {

// Where tensor memory comes from. `pool` is the engine's CachingPool over the same
// cudaMalloc allocator as `device`, so the backend's own allocator is then cudaMalloc.
enum class DeviceAllocation { device, pool, async, managed };
enum class HostMemory { pageable, pinned };
enum class TransferMode { sync, overlap };

// The CUDA backend's run options, validated: the engine leaves the memory axes of a
// non-CPU backend to the backend.
struct CudaRunOptions {
    int device = 0;
    DeviceAllocation allocation = DeviceAllocation::device;
    HostMemory host_memory = HostMemory::pageable;
    TransferMode transfer = TransferMode::sync;
    bool exhaustive_algorithms = false;
    std::size_t workspace_limit_bytes = 256u << 20;
};

// Throws ConfigError naming the parameter and its valid values for anything this
// backend does not run (placement resident and cuda_graph on say why).
CudaRunOptions parse_cuda_run_options(const BackendOptions& options);

std::string to_string(DeviceAllocation allocation);
std::string to_string(HostMemory host_memory);
std::string to_string(TransferMode transfer);

}  // namespace trainscope::workloads::cuda
