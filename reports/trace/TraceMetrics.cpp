#include "reports/trace/TraceMetrics.hpp"

#include "profiler/analysis/CopyComputeOverlapAnalysis.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/TensorCoreAnalysis.hpp"
#include "reports/metrics/MetricTags.hpp"

namespace trainscope::reports {

std::vector<Metric> compute_trace_metrics(const profiler::Trace& trace) {
    std::vector<Metric> metrics;
    if (profiler::is_host_op_trace(trace)) {
        // CPU run: how much of the op span the backend's ops covered.
        std::int64_t span_ns = 0;
        std::int64_t busy_ns = 0;
        for (const auto& d : profiler::analyze_gpu_busy(profiler::host_ops_as_device_work(trace))) {
            span_ns += d.span_ns;
            busy_ns += d.busy_ns;
        }
        if (span_ns > 0) {
            metrics.push_back({metric_tag::cpu_op_busy_pct, 100.0 * static_cast<double>(busy_ns) /
                                                                static_cast<double>(span_ns)});
        }
    }
    std::int64_t span_ns = 0;
    std::int64_t busy_ns = 0;
    for (const auto& device : profiler::analyze_gpu_busy(trace)) {
        span_ns += device.span_ns;
        busy_ns += device.busy_ns;
    }
    if (span_ns > 0) {
        metrics.push_back({metric_tag::gpu_busy_pct,
                           100.0 * static_cast<double>(busy_ns) / static_cast<double>(span_ns)});
        metrics.push_back({metric_tag::gpu_idle_ms, static_cast<double>(span_ns - busy_ns) * 1e-6});
    }
    const auto tensor_cores = profiler::analyze_tensor_core_usage(trace);
    metrics.push_back({metric_tag::kernel_count, static_cast<double>(tensor_cores.kernel_count)});
    metrics.push_back(
        {metric_tag::kernel_time_ms, static_cast<double>(tensor_cores.kernel_ns) * 1e-6});
    if (tensor_cores.kernel_ns > 0) {
        metrics.push_back({metric_tag::tensor_core_pct, 100.0 * tensor_cores.share});
    }
    std::int64_t copy_ns = 0;
    std::int64_t exposed_ns = 0;
    for (const auto& device : profiler::analyze_copy_compute_overlap(trace)) {
        copy_ns += device.copy_ns;
        exposed_ns += device.exposed_copy_ns;
    }
    if (copy_ns > 0) {
        metrics.push_back({metric_tag::copy_time_ms, static_cast<double>(copy_ns) * 1e-6});
        metrics.push_back({metric_tag::exposed_copy_ms, static_cast<double>(exposed_ns) * 1e-6});
    }
    metrics.push_back({metric_tag::dropped_records, static_cast<double>(trace.dropped_records)});
    metrics.push_back({metric_tag::trace_activities, static_cast<double>(trace.activities.size())});
    return metrics;
}

}  // namespace trainscope::reports
