#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "workloads/backend/Backend.hpp"
#include "workloads/backend/BackendKind.hpp"
#include "workloads/backend/MemoryStrategy.hpp"

namespace trainscope::workloads {

struct BackendOptions {
    int threads = 0;  // 0: all cores
    int device = 0;
    // Memory strategy and library choices, from TrainingConfig; the CPU backend ignores
    // them (the engine validates them for "cpu"), a GPU backend validates its own.
    Allocator allocator = Allocator::pool;  // a caching allocator, as PyTorch has by default
    HostMemory host_memory = HostMemory::pageable;
    Transfer transfer = Transfer::sync;
    Placement placement = Placement::stream;
    bool cuda_graph = false;
    CudnnAlgo cudnn_algo = CudnnAlgo::heuristic;
    std::int64_t cudnn_workspace_bytes = 256LL << 20;
};

using BackendFactory = std::function<std::unique_ptr<Backend>(const BackendOptions&)>;

// Backends by name. "cpu" is always there; a CUDA build registers "cuda" at start-up
// (before the first run) so this library never depends on CUDA.
void register_backend(const std::string& name, BackendFactory factory);
bool backend_registered(const std::string& name);
std::vector<std::string> registered_backends();
// Throws ConfigError naming `backend` and the registered names when `name` is unknown.
std::unique_ptr<Backend> create_backend(const std::string& name, const BackendOptions& options);

}  // namespace trainscope::workloads
