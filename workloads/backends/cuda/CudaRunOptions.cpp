#include "workloads/backends/cuda/CudaRunOptions.hpp"

#include "workloads/training/ConfigError.hpp"
#include "workloads/training/CudaGraphSupport.hpp"

namespace trainscope::workloads::cuda {

CudaRunOptions parse_cuda_run_options(const BackendOptions& options) {
    CudaRunOptions parsed;
    if (options.device < 0) {
        throw ConfigError("device: " + std::to_string(options.device) + " must be >= 0");
    }
    parsed.device = options.device;
    parsed.allocation = options.allocator;
    parsed.host_memory = options.host_memory;
    parsed.transfer = options.transfer;
    if (parsed.transfer == TransferMode::overlap && parsed.host_memory != HostMemory::pinned) {
        throw ConfigError(
            "transfer: overlap needs host_memory pinned (a copy from pageable memory cannot "
            "run asynchronously to the host); use host_memory=pinned or transfer=sync");
    }
    parsed.placement = options.placement;
    parsed.cuda_graph = options.cuda_graph;
    if (parsed.cuda_graph) {
        const std::string refusal = cuda_graph_refusal(options.allocator);
        if (!refusal.empty()) {
            throw ConfigError(refusal);
        }
    }
    parsed.exhaustive_algorithms = options.cudnn_algo == workloads::CudnnAlgo::exhaustive;
    if (options.cudnn_workspace_bytes < 0) {
        throw ConfigError("cudnn_workspace_bytes: " +
                          std::to_string(options.cudnn_workspace_bytes) + " must be >= 0");
    }
    parsed.workspace_limit_bytes = static_cast<std::size_t>(options.cudnn_workspace_bytes);
    return parsed;
}

}  // namespace trainscope::workloads::cuda
