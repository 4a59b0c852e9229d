#include "reports/trace/TraceMetrics.hpp"

#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/KernelCategory.hpp"
#include "reports/metrics/MetricTags.hpp"

namespace trainscope::reports {

using profiler::Activity;
using profiler::ActivityKind;
using profiler::Interval;

namespace {

// Summed over devices: the span from each device's first to last busy moment, and the
// busy time in it (profiler::analyze_gpu_busy's span_ns and busy_ns).
struct SpanBusy {
    std::int64_t span_ns = 0;
    std::int64_t busy_ns = 0;
};

template <typename ByDevice>
SpanBusy span_and_busy(const ByDevice& by_device) {
    SpanBusy total;
    for (const auto& [device, intervals] : by_device) {
        const auto merged = profiler::merge_intervals(intervals);
        if (merged.empty())
            continue;
        total.span_ns += merged.back().end_ns - merged.front().begin_ns;
        total.busy_ns += profiler::total_length_ns(merged);
    }
    return total;
}

}  // namespace

TraceMetricsAccumulator::TraceMetricsAccumulator(const profiler::StringTable& strings,
                                                 std::span<const profiler::Lane> lanes,
                                                 bool host_op_trace)
    : strings_(strings), lanes_(lanes), host_op_trace_(host_op_trace) {}

void TraceMetricsAccumulator::append(std::vector<Interval>& to, const Activity& a) {
    // Joining an interval that starts inside the last one keeps the union (what the
    // analyses measure) and spares memory on a stream's back-to-back work.
    if (a.end_ns <= a.start_ns)
        return;
    if (!to.empty() && a.start_ns >= to.back().begin_ns && a.start_ns <= to.back().end_ns) {
        to.back().end_ns = std::max(to.back().end_ns, a.end_ns);
        return;
    }
    to.push_back({a.start_ns, a.end_ns});
}

void TraceMetricsAccumulator::add(const Activity& a) {
    ++activities_;
    const std::int32_t device = a.device >= 0 ? a.device : lanes_[a.lane].device;
    switch (a.kind) {
        case ActivityKind::Kernel: {
            append(kernels_[device], a);
            ++kernel_count_;
            kernel_ns_ += a.duration_ns();
            auto [it, inserted] = tensor_core_names_.emplace(a.name, false);
            if (inserted)
                it->second = profiler::uses_tensor_cores(strings_.at(a.name));
            if (it->second)
                tensor_core_ns_ += a.duration_ns();
            break;
        }
        case ActivityKind::Memcpy:
            append(copies_[device], a);
            break;
        case ActivityKind::HostOp:
            // As host_ops_as_device_work makes them: on no device but their lane's.
            if (host_op_trace_)
                append(host_ops_[lanes_[a.lane].device], a);
            break;
        default:
            break;
    }
}

std::vector<Metric> TraceMetricsAccumulator::finish(std::int64_t dropped_records) const {
    std::vector<Metric> metrics;
    if (host_op_trace_) {
        // CPU run: how much of the op span the backend's ops covered.
        const SpanBusy ops = span_and_busy(host_ops_);
        if (ops.span_ns > 0) {
            metrics.push_back(
                {metric_tag::cpu_op_busy_pct,
                 100.0 * static_cast<double>(ops.busy_ns) / static_cast<double>(ops.span_ns)});
        }
    }
    const SpanBusy gpu = span_and_busy(kernels_);
    if (gpu.span_ns > 0) {
        metrics.push_back({metric_tag::gpu_busy_pct, 100.0 * static_cast<double>(gpu.busy_ns) /
                                                         static_cast<double>(gpu.span_ns)});
        metrics.push_back(
            {metric_tag::gpu_idle_ms, static_cast<double>(gpu.span_ns - gpu.busy_ns) * 1e-6});
    }
    metrics.push_back({metric_tag::kernel_count, static_cast<double>(kernel_count_)});
    metrics.push_back({metric_tag::kernel_time_ms, static_cast<double>(kernel_ns_) * 1e-6});
    if (kernel_ns_ > 0) {
        const double share = static_cast<double>(tensor_core_ns_) / static_cast<double>(kernel_ns_);
        metrics.push_back({metric_tag::tensor_core_pct, 100.0 * share});
    }
    std::int64_t copy_ns = 0;
    std::int64_t exposed_ns = 0;
    for (const auto& [device, intervals] : copies_) {
        const auto copy_union = profiler::merge_intervals(intervals);
        const auto found = kernels_.find(device);
        const auto compute_union = found != kernels_.end()
                                       ? profiler::merge_intervals(found->second)
                                       : std::vector<Interval>{};
        const std::int64_t copy = profiler::total_length_ns(copy_union);
        copy_ns += copy;
        exposed_ns += copy - profiler::total_length_ns(
                                 profiler::intersect_intervals(copy_union, compute_union));
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
    for (const Activity& a : trace.activities)
        metrics.add(a);
    return metrics.finish(trace.dropped_records);
}

}  // namespace trainscope::reports
