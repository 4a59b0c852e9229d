#pragma once

#include <cstdint>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Signs that a trace cannot be fully trusted. Every count is of activities.
struct TraceHealth {
    std::int64_t dropped_records = 0;  // Trace::dropped_records (CUPTI buffers full)
    // Buffer requests CUPTI made that the capture refused (all buffers outstanding):
    // records were lost even where CUPTI could not count them.
    std::int64_t refused_buffer_requests = 0;
    // GPU records CUPTI could not time (left out of the trace).
    std::int64_t records_without_timestamps = 0;
    // GPU work that starts before the API call that launched it begins: the host and
    // GPU clocks disagree (a launch cannot be observed before it is requested).
    std::int64_t gpu_work_before_launch = 0;
    std::int64_t max_clock_skew_ns = 0;  // largest such lead
    // Activities ending before the capture window opens or starting after it closes
    // (only checked when the trace has a window: capture_end_ns > capture_begin_ns).
    std::int64_t outside_capture_window = 0;
    std::int64_t zero_duration = 0;
    std::int64_t negative_duration = 0;
    // GPU work with a correlation id whose launching API call is missing from the
    // trace, and among it, kernels launched from CUDA graphs (graph_id != 0): their
    // launch is a single cudaGraphLaunch that CUPTI may attribute elsewhere.
    std::int64_t gpu_work_without_launch = 0;
    std::int64_t graph_kernels_without_launch = 0;

    [[nodiscard]] bool healthy() const {
        return dropped_records == 0 && refused_buffer_requests == 0 &&
               records_without_timestamps == 0 && gpu_work_before_launch == 0 &&
               outside_capture_window == 0 && negative_duration == 0 &&
               gpu_work_without_launch == 0;
    }
};

TraceHealth analyze_trace_health(const Trace& trace);

}  // namespace trainscope::profiler
