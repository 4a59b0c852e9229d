#include "profiler/analysis/GpuBusyAnalysis.hpp"

#include <algorithm>

#include "profiler/analysis/DeviceSweep.hpp"

namespace trainscope::profiler {

namespace {

// The intervals `options` counts as busy; unmerged.
std::vector<Interval> busy_intervals(const DeviceWorkAccumulator::Work& work,
                                     const GpuBusyOptions& options) {
    std::vector<Interval> all = work.kernels;
    if (options.include_copies) {
        all.insert(all.end(), work.copies.begin(), work.copies.end());
        all.insert(all.end(), work.sets.begin(), work.sets.end());
    }
    return all;
}

}  // namespace

std::vector<GpuBusy> analyze_gpu_busy(const Trace& trace, const GpuBusyOptions& options) {
    return analyze_gpu_busy(trace, options, TimeWindow{});
}

std::vector<GpuBusy> analyze_gpu_busy(const Trace& trace, const GpuBusyOptions& options,
                                      const TimeWindow& window) {
    return analyze_gpu_busy(DeviceWorkAccumulator::of(trace), options, window);
}

std::vector<DeviceBusyTimeline> device_busy_timelines(const Trace& trace,
                                                      const GpuBusyOptions& options) {
    return device_busy_timelines(DeviceWorkAccumulator::of(trace), options);
}

std::vector<DeviceBusyTimeline> device_busy_timelines(const DeviceWorkAccumulator& all,
                                                      const GpuBusyOptions& options) {
    std::vector<DeviceBusyTimeline> result;
    for (const auto& [key, work] : all.devices()) {
        const bool counted = work.kernel_count > 0 ||
                             (options.include_copies && work.copy_count + work.set_count > 0);
        if (!counted)
            continue;
        std::vector<Interval> intervals = busy_intervals(work, options);
        std::vector<std::vector<Interval>> one_worker;
        one_worker.push_back(std::move(intervals));
        result.push_back({key.rank, key.device, BusyTimeline(std::move(one_worker))});
    }
    return result;
}

std::vector<GpuBusy> analyze_gpu_busy(const DeviceWorkAccumulator& work,
                                      const GpuBusyOptions& options, const TimeWindow& window) {
    std::vector<GpuBusy> result;
    for (const auto& [key, device_work] : work.devices()) {
        std::vector<Interval> intervals = busy_intervals(device_work, options);
        for (Interval& i : intervals) {
            i.begin_ns = std::max(i.begin_ns, window.begin_ns);
            i.end_ns = std::min(i.end_ns, window.end_ns);
        }
        const std::vector<Interval> merged = merge_intervals(std::move(intervals));
        if (merged.empty())
            continue;
        // The busy intervals stand for the kernels: span and busy time as the run
        // metrics' DeviceWorkSummary measures them.
        const DeviceSweepFigures figures = DeviceSweep::of(merged, {});
        GpuBusy b;
        b.rank = key.rank;
        b.device = key.device;
        b.span_begin_ns = figures.span_begin_ns;
        b.span_end_ns = figures.span_end_ns;
        b.span_ns = b.span_end_ns - b.span_begin_ns;
        b.busy_ns = figures.kernel_ns;
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
