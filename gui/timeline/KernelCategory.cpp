#include "gui/timeline/KernelCategory.hpp"

#include "profiler/analysis/HostOpsAsWork.hpp"

namespace trainscope::gui {

Category from_profiler(profiler::KernelCategory category, profiler::ActivityKind kind) {
    switch (category) {
        case profiler::KernelCategory::Convolution:
            return Category::Conv;
        case profiler::KernelCategory::Gemm:
            return Category::Gemm;
        case profiler::KernelCategory::Elementwise:
            return Category::Elementwise;
        case profiler::KernelCategory::Reduction:
            return Category::Reduction;
        case profiler::KernelCategory::Normalization:
            return Category::Normalization;
        case profiler::KernelCategory::Optimizer:
            return Category::Optimizer;
        case profiler::KernelCategory::MemcpyMemset:
            return kind == profiler::ActivityKind::Memset ? Category::Memset : Category::Memcpy;
        case profiler::KernelCategory::Other:
            return Category::OtherKernel;
        case profiler::KernelCategory::Communication:
            return Category::Communication;
    }
    return Category::OtherKernel;
}

Category classify_kernel_name(std::string_view name) {
    return from_profiler(profiler::classify_kernel(name), profiler::ActivityKind::Kernel);
}

Category classify(profiler::ActivityKind kind, std::string_view name, bool host_op_trace) {
    using profiler::ActivityKind;
    if (profiler::is_device_work(kind, host_op_trace))
        return from_profiler(profiler::classify_work(kind, name), kind);
    switch (kind) {
        case ActivityKind::Synchronization:
            return Category::Sync;
        case ActivityKind::RuntimeApi:
        case ActivityKind::DriverApi:
            return Category::RuntimeApi;
        case ActivityKind::NvtxRange:
            return Category::Nvtx;
        case ActivityKind::HostOp:
            return Category::HostOp;
        case ActivityKind::Overhead:
            return Category::Overhead;
        case ActivityKind::Collective:
            return Category::Communication;
        case ActivityKind::Kernel:
        case ActivityKind::Memcpy:
        case ActivityKind::Memset:
            break;
    }
    return Category::OtherKernel;
}

std::string_view category_name(Category category) {
    switch (category) {
        case Category::Conv:
            return "conv";
        case Category::Gemm:
            return "gemm";
        case Category::Elementwise:
            return "elementwise";
        case Category::Reduction:
            return "reduction";
        case Category::Normalization:
            return "normalization";
        case Category::Optimizer:
            return "optimizer";
        case Category::OtherKernel:
            return "other kernel";
        case Category::Communication:
            return "communication";
        case Category::Memcpy:
            return "memcpy";
        case Category::Memset:
            return "memset";
        case Category::Sync:
            return "sync";
        case Category::RuntimeApi:
            return "API call";
        case Category::Nvtx:
            return "NVTX range";
        case Category::HostOp:
            return "host op";
        case Category::Overhead:
            return "overhead";
    }
    return "?";
}

bool is_gpu_work(Category category) {
    return category <= Category::Memset;
}

}  // namespace trainscope::gui
