#include "gui/kernels/KernelStats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "profiler/analysis/KernelBreakdownAnalysis.hpp"

namespace trainscope::gui {

namespace {

// Work starts are whole nanoseconds: start >= t exactly when start >= ceil(t).
std::int64_t start_bound(double t_ns) {
    if (t_ns <= static_cast<double>(std::numeric_limits<std::int64_t>::min()))
        return std::numeric_limits<std::int64_t>::min();
    if (t_ns >= static_cast<double>(std::numeric_limits<std::int64_t>::max()))
        return std::numeric_limits<std::int64_t>::max();
    return static_cast<std::int64_t>(std::ceil(t_ns));
}

}  // namespace

std::vector<KernelStat> computeKernelStats(const TimelineData& data) {
    return computeKernelStats(data, -std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::infinity());
}

std::vector<KernelStat> computeKernelStats(const TimelineData& data, double t0_ns, double t1_ns) {
    // The profiler's breakdown (the numbers of `trainscope analyze` and kernels.csv);
    // the GUI adds its display category, which tells a memset from a memcpy.
    const profiler::TimeWindow window{start_bound(t0_ns), start_bound(t1_ns)};
    // Over the device work of the window only, read from the store where it lives there.
    const ActivitySelection work = data.deviceWorkIn(t0_ns, t1_ns);
    return kernelStatsOf(data, profiler::analyze_kernel_breakdown(work.trace(), window),
                         [&work](std::size_t i) { return work.original(i); });
}

std::vector<KernelStat> kernelStatsOf(const TimelineData& data,
                                      const profiler::KernelBreakdown& breakdown,
                                      const std::function<std::uint32_t(std::size_t)>& original) {
    std::vector<KernelStat> out;
    out.reserve(breakdown.by_name.size());
    for (const profiler::KernelNameStats& k : breakdown.by_name) {
        KernelStat s;
        s.longest = original ? original(k.longest) : static_cast<std::uint32_t>(k.longest);
        s.name = data.name(data.activity(s.longest).name);
        s.category = data.category(s.longest);
        s.count = k.stats.count;
        s.total_ns = k.stats.total_ns;
        s.min_ns = k.stats.min_ns;
        s.max_ns = k.stats.max_ns;
        s.share = k.stats.share;
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<KernelStat> mergeKernelStats(const std::vector<const std::vector<KernelStat>*>& parts) {
    std::vector<KernelStat> out;
    std::unordered_map<QString, std::size_t> by_name;
    std::int64_t all = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        for (const KernelStat& s : *parts[p]) {
            all += s.total_ns;
            auto [it, inserted] = by_name.emplace(s.name, out.size());
            if (inserted) {
                out.push_back(s);
                if (p > 0)
                    out.back().longest = kNoActivity;
                continue;
            }
            KernelStat& m = out[it->second];
            m.count += s.count;
            m.total_ns += s.total_ns;
            m.min_ns = std::min(m.min_ns, s.min_ns);
            m.max_ns = std::max(m.max_ns, s.max_ns);
        }
    }
    for (KernelStat& s : out)
        s.share = all > 0 ? static_cast<double>(s.total_ns) / static_cast<double>(all) : 0.0;
    std::sort(out.begin(), out.end(),
              [](const KernelStat& a, const KernelStat& b) { return a.total_ns > b.total_ns; });
    return out;
}

}  // namespace trainscope::gui
