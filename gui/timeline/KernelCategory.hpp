#pragma once

#include <QColor>
#include <cstdint>
#include <string_view>

#include "profiler/trace/ActivityKind.hpp"

namespace trainscope::gui {

// What an activity is, for colouring and statistics. Kernels are classified by name
// with the profiler library's classifier (profiler/analysis/KernelCategory.hpp);
// everything else by its kind.
enum class Category : std::uint8_t {
    Conv,
    Gemm,
    Elementwise,
    Reduction,
    Normalization,
    Optimizer,
    OtherKernel,
    Memcpy,
    Memset,
    Sync,
    RuntimeApi,
    Nvtx,
    HostOp,
    Overhead,
};
inline constexpr int kCategoryCount = 14;

Category classify(profiler::ActivityKind kind, std::string_view name);
Category classify_kernel_name(std::string_view name);
std::string_view category_name(Category category);
QColor category_color(Category category);
// Kernel-like categories: GPU work shown in the statistics and counted as busy time.
bool is_gpu_work(Category category);

}  // namespace trainscope::gui
