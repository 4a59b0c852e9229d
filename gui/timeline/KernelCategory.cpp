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

QColor category_color(Category category) {
    switch (category) {
        case Category::Conv:
            return QColor(0x3d, 0x7e, 0xdb);  // blue
        case Category::Gemm:
            return QColor(0x8e, 0x5c, 0xd6);  // purple
        case Category::Elementwise:
            return QColor(0x3f, 0xb5, 0x6b);  // green
        case Category::Reduction:
            return QColor(0x1f, 0xa8, 0xa8);  // teal
        case Category::Normalization:
            return QColor(0x9a, 0xc2, 0x3c);  // olive
        case Category::Optimizer:
            return QColor(0xf0, 0x8c, 0x28);  // orange
        case Category::OtherKernel:
            return QColor(0x8a, 0x94, 0xa6);  // slate
        case Category::Memcpy:
            return QColor(0xe0, 0x4a, 0x4a);  // red
        case Category::Memset:
            return QColor(0xe8, 0x6f, 0xb8);  // pink
        case Category::Sync:
            return QColor(0xc9, 0x3a, 0x3a);
        case Category::RuntimeApi:
            return QColor(0xb8, 0xa6, 0x58);  // khaki
        case Category::Nvtx:
            return QColor(0x6a, 0x9b, 0xc4);
        case Category::HostOp:
            return QColor(0x7c, 0x8c, 0x5c);
        case Category::Overhead:
            return QColor(0x60, 0x60, 0x60);
    }
    return Qt::gray;
}

bool is_gpu_work(Category category) {
    return category <= Category::Memset;
}

}  // namespace trainscope::gui
