#pragma once

#include <QString>
#include <cstdint>
#include <functional>
#include <vector>

#include "gui/timeline/KernelCategory.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "profiler/analysis/KernelBreakdownAnalysis.hpp"

namespace trainscope::gui {

inline constexpr std::uint32_t kNoActivity = 0xffffffffU;

// Time spent per name of the device's work (kernels, copies, sets; a CPU-backend
// trace's ops) of one trace, from profiler::analyze_kernel_breakdown.
struct KernelStat {
    QString name;
    Category category = Category::OtherKernel;
    std::int64_t count = 0;
    std::int64_t total_ns = 0;
    std::int64_t min_ns = 0;
    std::int64_t max_ns = 0;
    std::uint32_t longest = 0;  // activity index of the longest instance
    double share = 0.0;         // of all the device's work time, 0..1

    [[nodiscard]] double mean_ns() const {
        return count > 0 ? static_cast<double>(total_ns) / static_cast<double>(count) : 0.0;
    }
};

// Sorted by total time, largest first.
std::vector<KernelStat> computeKernelStats(const TimelineData& data);
// Only the GPU work that starts in [t0_ns, t1_ns) (a timeline range selection).
std::vector<KernelStat> computeKernelStats(const TimelineData& data, double t0_ns, double t1_ns);
// The same from a breakdown made elsewhere (the loader's, as the rows pass): `original`
// maps the breakdown's activity indexes to the timeline's (the same when not given).
std::vector<KernelStat> kernelStatsOf(
    const TimelineData& data, const profiler::KernelBreakdown& breakdown,
    const std::function<std::uint32_t(std::size_t)>& original = {});
// Statistics of several runs by name (the Kernels tab with several runs selected).
// `longest` stays valid only for names seen in parts[0] (the run on the timeline);
// others get kNoActivity.
std::vector<KernelStat> mergeKernelStats(const std::vector<const std::vector<KernelStat>*>& parts);

}  // namespace trainscope::gui
