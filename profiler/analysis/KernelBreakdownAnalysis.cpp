#include "profiler/analysis/KernelBreakdownAnalysis.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <utility>

#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/OpSelfTime.hpp"

namespace trainscope::profiler {

namespace {

void add_sample(DurationStats& s, std::int64_t duration_ns) {
    if (s.count == 0) {
        s.min_ns = duration_ns;
        s.max_ns = duration_ns;
    } else {
        s.min_ns = std::min(s.min_ns, duration_ns);
        s.max_ns = std::max(s.max_ns, duration_ns);
    }
    ++s.count;
    s.total_ns += duration_ns;
}

void finish_stats(DurationStats& s, std::int64_t grand_total_ns) {
    s.mean_ns = s.count > 0 ? static_cast<double>(s.total_ns) / static_cast<double>(s.count) : 0.0;
    s.share = grand_total_ns > 0
                  ? static_cast<double>(s.total_ns) / static_cast<double>(grand_total_ns)
                  : 0.0;
}

}  // namespace

void KernelBreakdownAccumulator::add(const Activity& a, std::size_t index,
                                     std::int64_t duration_ns) {
    auto [it, inserted] = name_index_.emplace(a.name, result_.by_name.size());
    if (inserted) {
        const std::string& name = strings_->at(a.name);
        result_.by_name.push_back(KernelNameStats{name, classify_work(a.kind, name), {}, index});
    }
    KernelNameStats& entry = result_.by_name[it->second];
    if (duration_ns > entry.stats.max_ns || entry.stats.count == 0)
        entry.longest = index;
    add_sample(entry.stats, duration_ns);
    add_sample(categories_[static_cast<std::size_t>(entry.category)], duration_ns);
    result_.total_ns += duration_ns;
}

KernelBreakdown KernelBreakdownAccumulator::finish() && {
    KernelBreakdown result = std::move(result_);
    for (auto& entry : result.by_name)
        finish_stats(entry.stats, result.total_ns);
    for (std::size_t c = 0; c < categories_.size(); ++c) {
        if (categories_[c].count == 0)
            continue;
        finish_stats(categories_[c], result.total_ns);
        result.by_category.push_back({static_cast<KernelCategory>(c), categories_[c]});
    }
    std::stable_sort(
        result.by_name.begin(), result.by_name.end(),
        [](const auto& a, const auto& b) { return a.stats.total_ns > b.stats.total_ns; });
    std::stable_sort(
        result.by_category.begin(), result.by_category.end(),
        [](const auto& a, const auto& b) { return a.stats.total_ns > b.stats.total_ns; });
    return result;
}

KernelBreakdown analyze_kernel_breakdown(const Trace& trace, const TimeWindow& window) {
    KernelBreakdownAccumulator result(trace.strings);
    const bool host_ops = is_host_op_trace(trace);
    // Host ops nest (a PyTorch trace's aten::conv2d holds aten::convolution, which holds
    // ...): summing their durations would count an instant once per level, so a CPU
    // trace's ops count by self time. GPU work does not nest and keeps its duration.
    std::vector<std::int64_t> self_ns;
    if (host_ops) {
        std::vector<bool> is_op(trace.activities.size());
        for (std::size_t i = 0; i < trace.activities.size(); ++i)
            is_op[i] = trace.activities[i].kind == ActivityKind::HostOp;
        self_ns = op_self_times(trace, is_op);
    }
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& a = trace.activities[i];
        if (!is_device_work(a.kind, host_ops) || !window.contains(a.start_ns)) {
            continue;
        }
        result.add(a, i, host_ops ? self_ns[i] : a.duration_ns());
    }
    return std::move(result).finish();
}

}  // namespace trainscope::profiler
