#include "reports/trace/TraceMetrics.hpp"

#include "profiler/analysis/CopyComputeOverlapAnalysis.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "reports/metrics/MetricTags.hpp"

namespace trainscope::reports {

namespace {

// Summed over devices: the span from each device's first to last busy moment, and the
// busy time in it.
struct SpanBusy {
    std::int64_t span_ns = 0;
    std::int64_t busy_ns = 0;
};

SpanBusy span_and_busy(const profiler::DeviceWorkAccumulator& work) {
    SpanBusy total;
    for (const profiler::GpuBusy& device : profiler::analyze_gpu_busy(work)) {
        total.span_ns += device.span_ns;
        total.busy_ns += device.busy_ns;
    }
    return total;
}

double percent(std::int64_t part, std::int64_t whole) {
    return 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

TraceMetricsAccumulator::TraceMetricsAccumulator(const profiler::StringTable& strings,
                                                 std::span<const profiler::Lane> lanes,
                                                 bool host_op_trace)
    : host_op_trace_(host_op_trace), work_(lanes, host_op_trace), tensor_cores_(strings) {}

void TraceMetricsAccumulator::add(const profiler::Activity& a) {
    ++activities_;
    work_.add(a);
    tensor_cores_.add(a);
}

std::vector<Metric> TraceMetricsAccumulator::finish(std::int64_t dropped_records) const {
    std::vector<Metric> metrics;
    // In a host-op trace (a CPU run) the accumulated "kernels" are the backend's ops: how
    // much of the op span they covered. Such a trace has no kernels, so no GPU figures.
    const SpanBusy busy = span_and_busy(work_);
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
    std::int64_t copy_ns = 0;
    std::int64_t exposed_ns = 0;
    for (const profiler::CopyComputeOverlap& o : profiler::analyze_copy_compute_overlap(work_)) {
        copy_ns += o.copy_ns;
        exposed_ns += o.exposed_copy_ns;
    }
    if (copy_ns > 0) {
        metrics.push_back({metric_tag::copy_time_ms, static_cast<double>(copy_ns) * 1e-6});
        metrics.push_back({metric_tag::exposed_copy_ms, static_cast<double>(exposed_ns) * 1e-6});
    }
    metrics.push_back({metric_tag::dropped_records, static_cast<double>(dropped_records)});
    metrics.push_back({metric_tag::trace_activities, static_cast<double>(activities_)});
    return metrics;
}

std::vector<Metric> compute_trace_metrics(const profiler::Trace& trace) {
    TraceMetricsAccumulator metrics(trace.strings, trace.lanes, profiler::is_host_op_trace(trace));
    for (const profiler::Activity& a : trace.activities)
        metrics.add(a);
    return metrics.finish(trace.dropped_records);
}

}  // namespace trainscope::reports
