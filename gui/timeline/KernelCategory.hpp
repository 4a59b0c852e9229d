#pragma once

#include <QColor>  // KernelStats.cpp finds std::hash<QString> through it
#include <cstdint>
#include <string_view>

#include "profiler/analysis/KernelCategory.hpp"
#include "profiler/trace/ActivityKind.hpp"

namespace trainscope::gui {

// What an activity is, for colouring and statistics. The device's work (kernels, copies,
// sets; in a CPU-backend trace the host ops) is classified by the profiler library
// (profiler/analysis/KernelCategory.hpp: classify_work); everything else by its kind.
enum class Category : std::uint8_t {
    Conv,
    Gemm,
    Elementwise,
    Reduction,
    Normalization,
    Optimizer,
    OtherKernel,
    Communication,
    Memcpy,
    Memset,
    Sync,
    RuntimeApi,
    Nvtx,
    HostOp,
    Overhead,
};
inline constexpr int kCategoryCount = 15;

// host_op_trace: profiler::is_host_op_trace of the trace the activity belongs to.
Category classify(profiler::ActivityKind kind, std::string_view name, bool host_op_trace = false);
Category classify_kernel_name(std::string_view name);
// The GUI's category of device work the profiler classified; a memset keeps its own.
Category from_profiler(profiler::KernelCategory category, profiler::ActivityKind kind);
std::string_view category_name(Category category);
// Kernel-like categories: GPU work shown in the statistics and counted as busy time.
bool is_gpu_work(Category category);

}  // namespace trainscope::gui
