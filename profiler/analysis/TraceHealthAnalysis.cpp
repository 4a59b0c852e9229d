#include "profiler/analysis/TraceHealthAnalysis.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include "profiler/analysis/GpuWork.hpp"

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

TraceHealthAccumulator::TraceHealthAccumulator(const Trace& header)
    : capture_begin_ns_(header.capture_begin_ns),
      capture_end_ns_(header.capture_end_ns),
      lane_ranks_(lane_ranks(header.lanes)) {
    health_.dropped_records = header.dropped_records;
    health_.refused_buffer_requests = metadata_count(header, "cupti.refused_buffer_requests");
    health_.records_without_timestamps = metadata_count(header, "cupti.records_without_timestamps");
}

void TraceHealthAccumulator::add(const Activity& a) {
    TraceHealth& h = health_;
    if (a.end_ns == a.start_ns)
        ++h.zero_duration;
    if (a.end_ns < a.start_ns)
        ++h.negative_duration;
    if (capture_end_ns_ > capture_begin_ns_ &&
        (a.end_ns < capture_begin_ns_ || a.start_ns > capture_end_ns_)) {
        ++h.outside_capture_window;
    }
    const std::int32_t rank = lane_ranks_.at(a.lane);
    launches_.add(rank, a, a.start_ns);
    if (is_gpu_work(a.kind)) {
        work_.push_back({a.correlation, a.start_ns, rank, a.graph_id != 0,
                         a.graph_id != 0 && a.kind == ActivityKind::Kernel});
    }
}

TraceHealth TraceHealthAccumulator::finish() && {
    TraceHealth h = health_;
    launches_.seal();
    for (const Work& w : work_) {
        const std::int64_t* launch_start = launches_.find(w.rank, w.correlation);
        if (launch_start == nullptr) {
            if (w.correlation != 0 || w.graph) {
                ++h.gpu_work_without_launch;
                if (w.graph_kernel)
                    ++h.graph_kernels_without_launch;
            }
            continue;
        }
        if (w.start_ns < *launch_start) {
            ++h.gpu_work_before_launch;
            h.max_clock_skew_ns = std::max(h.max_clock_skew_ns, *launch_start - w.start_ns);
        }
    }
    return h;
}

TraceHealth analyze_trace_health(const Trace& trace) {
    TraceHealthAccumulator health(trace);
    for (const Activity& a : trace.activities)
        health.add(a);
    return std::move(health).finish();
}

}  // namespace trainscope::profiler
