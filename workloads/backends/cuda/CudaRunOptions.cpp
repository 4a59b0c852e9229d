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
    if (options.allocator == "device" || options.allocator == "n/a") {
        parsed.allocation = DeviceAllocation::device;
    } else if (options.allocator == "pool") {
        parsed.allocation = DeviceAllocation::pool;
    } else if (options.allocator == "async") {
        parsed.allocation = DeviceAllocation::async;
    } else if (options.allocator == "managed") {
        parsed.allocation = DeviceAllocation::managed;
    } else {
        throw ConfigError("allocator: unknown value '" + options.allocator +
                          "'; valid values on backend cuda are device, pool, async, managed");
    }
    if (options.host_memory == "pageable" || options.host_memory == "n/a") {
        parsed.host_memory = HostMemory::pageable;
    } else if (options.host_memory == "pinned") {
        parsed.host_memory = HostMemory::pinned;
    } else {
        throw ConfigError("host_memory: unknown value '" + options.host_memory +
                          "'; valid values are pageable, pinned");
    }
    if (options.transfer == "sync" || options.transfer == "n/a") {
        parsed.transfer = TransferMode::sync;
    } else if (options.transfer == "overlap") {
        parsed.transfer = TransferMode::overlap;
    } else {
        throw ConfigError("transfer: unknown value '" + options.transfer +
                          "'; valid values are sync, overlap");
    }
    if (parsed.transfer == TransferMode::overlap && parsed.host_memory != HostMemory::pinned) {
        throw ConfigError(
            "transfer: overlap needs host_memory pinned (a copy from pageable memory cannot "
            "run asynchronously to the host); use host_memory=pinned or transfer=sync");
    }
    if (options.placement == "stream" || options.placement == "n/a") {
        parsed.placement = DataPlacement::stream;
    } else if (options.placement == "resident") {
        parsed.placement = DataPlacement::resident;
    } else {
        throw ConfigError("placement: unknown value '" + options.placement +
                          "'; valid values are stream, resident");
    }
    parsed.cuda_graph = options.cuda_graph;
    if (parsed.cuda_graph) {
        const std::string refusal = cuda_graph_refusal(options.allocator);
        if (!refusal.empty()) {
            throw ConfigError(refusal);
        }
    }
    if (options.cudnn_algo == "heuristic") {
        parsed.exhaustive_algorithms = false;
    } else if (options.cudnn_algo == "exhaustive") {
        parsed.exhaustive_algorithms = true;
    } else {
        throw ConfigError("cudnn_algo: unknown value '" + options.cudnn_algo +
                          "'; valid values are heuristic, exhaustive");
    }
    if (options.cudnn_workspace_bytes < 0) {
        throw ConfigError("cudnn_workspace_bytes: " +
                          std::to_string(options.cudnn_workspace_bytes) + " must be >= 0");
    }
    parsed.workspace_limit_bytes = static_cast<std::size_t>(options.cudnn_workspace_bytes);
    return parsed;
}

std::string to_string(DeviceAllocation allocation) {
    switch (allocation) {
        case DeviceAllocation::device:
            return "device";
        case DeviceAllocation::pool:
            return "pool";
        case DeviceAllocation::async:
            return "async";
        case DeviceAllocation::managed:
            return "managed";
    }
    return "?";
}

std::string to_string(DataPlacement placement) {
    return placement == DataPlacement::resident ? "resident" : "stream";
}

std::string to_string(HostMemory host_memory) {
    return host_memory == HostMemory::pinned ? "pinned" : "pageable";
}

std::string to_string(TransferMode transfer) {
    return transfer == TransferMode::overlap ? "overlap" : "sync";
}

}  // namespace trainscope::workloads::cuda
