#include "profiler/analysis/TraceHealthAnalysis.hpp"

#include <algorithm>
#include <exception>
#include <string>

#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/LaunchIndex.hpp"

namespace trainscope::profiler {

namespace {

// A count the capture left in the trace's metadata; 0 when absent (imported traces).
std::int64_t metadata_count(const Trace& trace, const std::string& key) {
    const auto it = trace.metadata.find(key);
    if (it == trace.metadata.end())
        return 0;
    try {
        return std::stoll(it->second);
    } catch (const std::exception&) {
        return 0;
    }
}

}  // namespace

TraceHealth analyze_trace_health(const Trace& trace) {
    TraceHealth h;
    h.dropped_records = trace.dropped_records;
    h.refused_buffer_requests = metadata_count(trace, "cupti.refused_buffer_requests");
    h.records_without_timestamps = metadata_count(trace, "cupti.records_without_timestamps");
    const LaunchIndex launches(trace);
    const bool has_window = trace.capture_end_ns > trace.capture_begin_ns;
    for (const Activity& a : trace.activities) {
        if (a.end_ns == a.start_ns)
            ++h.zero_duration;
        if (a.end_ns < a.start_ns)
            ++h.negative_duration;
        if (has_window &&
            (a.end_ns < trace.capture_begin_ns || a.start_ns > trace.capture_end_ns)) {
            ++h.outside_capture_window;
        }
        if (!is_gpu_work(a.kind))
            continue;
        const auto launch = launches.launch_of(a.correlation);
        if (!launch) {
            if (a.correlation != 0 || a.graph_id != 0) {
                ++h.gpu_work_without_launch;
                if (a.kind == ActivityKind::Kernel && a.graph_id != 0)
                    ++h.graph_kernels_without_launch;
            }
            continue;
        }
        const std::int64_t launch_start_ns = trace.activities[*launch].start_ns;
        if (a.start_ns < launch_start_ns) {
            ++h.gpu_work_before_launch;
            h.max_clock_skew_ns = std::max(h.max_clock_skew_ns, launch_start_ns - a.start_ns);
        }
    }
    return h;
}

}  // namespace trainscope::profiler
