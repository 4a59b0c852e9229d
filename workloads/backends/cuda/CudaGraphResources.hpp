#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <type_traits>

#include "workloads/backends/cuda/GpuCheck.hpp"

// Move-only owners of a captured CUDA graph and its executable instance (as
// CudaResources.hpp does for streams and events).
namespace trainscope::workloads::cuda {

struct GraphDeleter {
    using pointer = cudaGraph_t;
    void operator()(cudaGraph_t graph) const noexcept {
        TS_CUDA_CHECK_NOEXCEPT(cudaGraphDestroy(graph));
    }
};
using CudaGraph = std::unique_ptr<std::remove_pointer_t<cudaGraph_t>, GraphDeleter>;

struct GraphExecDeleter {
    using pointer = cudaGraphExec_t;
    void operator()(cudaGraphExec_t exec) const noexcept {
        TS_CUDA_CHECK_NOEXCEPT(cudaGraphExecDestroy(exec));
    }
};
using CudaGraphExec = std::unique_ptr<std::remove_pointer_t<cudaGraphExec_t>, GraphExecDeleter>;

// CUDA 13: cudaGraphInstantiate(exec, graph, flags); no flags (no auto-free: the graph
// has no memory nodes, its tensors live in the engine's StepArena).
inline CudaGraphExec instantiate(cudaGraph_t graph) {
    cudaGraphExec_t exec = nullptr;
    TS_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    return CudaGraphExec(exec);
}

inline std::size_t node_count(cudaGraph_t graph) {
    std::size_t nodes = 0;
    TS_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    return nodes;
}

}  // namespace trainscope::workloads::cuda
