#include "reports/trace/TraceMetrics.hpp"

#include <algorithm>

#include "profiler/analysis/HostOpsAsWork.hpp"
#include "reports/metrics/MetricTags.hpp"

namespace trainscope::reports {

namespace {

// Summed over devices: the span from each device's first to last kernel moment and the
// kernels' busy time in it (analyze_gpu_busy's span_ns and busy_ns); the copy time and
// the part of it no kernel hid (analyze_copy_compute_overlap's copy_ns and exposed_copy_ns).
struct DeviceSums {
    std::int64_t span_ns = 0;
    std::int64_t busy_ns = 0;
    std::int64_t copy_ns = 0;
    std::int64_t exposed_ns = 0;
};

DeviceSums sums_of(const std::vector<profiler::DeviceWorkTotals>& devices) {
    DeviceSums total;
    for (const profiler::DeviceWorkTotals& d : devices) {
        total.span_ns += d.figures.span_end_ns - d.figures.span_begin_ns;
        total.busy_ns += d.figures.kernel_ns;
        total.copy_ns += d.figures.copy_ns;
        total.exposed_ns += d.figures.copy_ns - d.figures.overlap_ns;
    }
    return total;
}

double percent(std::int64_t part, std::int64_t whole) {
    return 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

TraceMetricsAccumulator::TraceMetricsAccumulator(const profiler::StringTable& strings,
                                                 std::span<const profiler::Lane> lanes,
                                                 bool host_op_trace, std::size_t run_capacity)
    : host_op_trace_(host_op_trace),
      work_(lanes, host_op_trace, run_capacity),
      tensor_cores_(strings) {}

void TraceMetricsAccumulator::add(const profiler::Activity& a) {
    ++activities_;
    work_.add(a);
    tensor_cores_.add(a);
}

std::vector<Metric> TraceMetricsAccumulator::finish(std::int64_t dropped_records) && {
    std::vector<Metric> metrics;
    const DeviceSums busy = sums_of(std::move(work_).finish());
    // In a host-op trace (a CPU run) the accumulated "kernels" are the backend's ops: how
    // much of the op span they covered. Such a trace has no kernels, so no GPU figures.
    if (busy.span_ns > 0) {
        if (host_op_trace_) {
            metrics.push_back({metric_tag::cpu_op_busy_pct, percent(busy.busy_ns, busy.span_ns)});
        } else {
            metrics.push_back({metric_tag::gpu_busy_pct, percent(busy.busy_ns, busy.span_ns)});
            metrics.push_back(
                {metric_tag::gpu_idle_ms, static_cast<double>(busy.span_ns - busy.busy_ns) * 1e-6});
        }
    }
    const profiler::TensorCoreUsage usage = tensor_cores_.finish();
    metrics.push_back({metric_tag::kernel_count, static_cast<double>(usage.kernel_count)});
    metrics.push_back({metric_tag::kernel_time_ms, static_cast<double>(usage.kernel_ns) * 1e-6});
    if (usage.kernel_ns > 0)
        metrics.push_back({metric_tag::tensor_core_pct, 100.0 * usage.share});
    if (busy.copy_ns > 0) {
        metrics.push_back({metric_tag::copy_time_ms, static_cast<double>(busy.copy_ns) * 1e-6});
        metrics.push_back(
            {metric_tag::exposed_copy_ms, static_cast<double>(busy.exposed_ns) * 1e-6});
    }
    metrics.push_back({metric_tag::dropped_records, static_cast<double>(dropped_records)});
    metrics.push_back({metric_tag::trace_activities, static_cast<double>(activities_)});
    return metrics;
}

std::vector<Metric> compute_trace_metrics(const profiler::Trace& trace) {
    const bool host_op_trace = profiler::is_host_op_trace(trace);
    // One run as large as the work it will sort: in memory beside the trace, which is
    // held anyway, rather than 88 bytes a record through $TMPDIR.
    const auto work_count = static_cast<std::size_t>(std::count_if(
        trace.activities.begin(), trace.activities.end(), [&](const profiler::Activity& a) {
            return a.kind == profiler::ActivityKind::Kernel ||
                   a.kind == profiler::ActivityKind::Memcpy ||
                   (host_op_trace && a.kind == profiler::ActivityKind::HostOp);
        }));
    TraceMetricsAccumulator metrics(trace.strings, trace.lanes, host_op_trace, work_count);
    for (const profiler::Activity& a : trace.activities)
        metrics.add(a);
    return std::move(metrics).finish(trace.dropped_records);
}

}  // namespace trainscope::reports
