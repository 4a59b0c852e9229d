#include "profiler/analysis/GpuBusyAnalysis.hpp"

#include <algorithm>
#include <map>

#include "profiler/analysis/GpuWork.hpp"

namespace trainscope::profiler {

std::vector<GpuBusy> analyze_gpu_busy(const Trace& trace, const GpuBusyOptions& options) {
    return analyze_gpu_busy(trace, options, TimeWindow{});
}

namespace {
std::map<std::int32_t, std::vector<Interval>> busy_intervals(const Trace& trace,
                                                             const GpuBusyOptions& options) {
    return options.include_copies
               ? intervals_by_device(
                     trace, {ActivityKind::Kernel, ActivityKind::Memcpy, ActivityKind::Memset})
               : intervals_by_device(trace, {ActivityKind::Kernel});
}
}  // namespace

std::vector<DeviceBusyTimeline> device_busy_timelines(const Trace& trace,
                                                      const GpuBusyOptions& options) {
    std::vector<DeviceBusyTimeline> result;
    for (auto& [device, intervals] : busy_intervals(trace, options)) {
        std::vector<std::vector<Interval>> one_worker;
        one_worker.push_back(std::move(intervals));
        result.push_back({device, BusyTimeline(std::move(one_worker))});
    }
    return result;
}

std::vector<GpuBusy> analyze_gpu_busy(const Trace& trace, const GpuBusyOptions& options,
                                      const TimeWindow& window) {
    auto by_device = busy_intervals(trace, options);
    std::vector<GpuBusy> result;
    for (auto& [device, intervals] : by_device) {
        for (Interval& i : intervals) {
            i.begin_ns = std::max(i.begin_ns, window.begin_ns);
            i.end_ns = std::min(i.end_ns, window.end_ns);
        }
        const std::vector<Interval> merged = merge_intervals(std::move(intervals));
        if (merged.empty())
            continue;
        GpuBusy b;
        b.device = device;
        b.span_begin_ns = merged.front().begin_ns;
        b.span_end_ns = merged.back().end_ns;
        b.span_ns = b.span_end_ns - b.span_begin_ns;
        b.busy_ns = total_length_ns(merged);
        b.idle_ns = b.span_ns - b.busy_ns;
        for (std::size_t i = 1; i < merged.size(); ++i) {
            const std::int64_t gap = merged[i].begin_ns - merged[i - 1].end_ns;
            if (gap < options.short_gap_threshold_ns) {
                b.short_gap_idle_ns += gap;
                ++b.short_gap_count;
            } else {
                b.long_gap_idle_ns += gap;
                ++b.long_gap_count;
            }
        }
        b.busy_fraction =
            b.span_ns > 0 ? static_cast<double>(b.busy_ns) / static_cast<double>(b.span_ns) : 0.0;
        result.push_back(b);
    }
    return result;
}

}  // namespace trainscope::profiler
