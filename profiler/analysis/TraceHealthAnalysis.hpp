#pragma once

#include <cstdint>
#include <vector>

#include "profiler/analysis/LaunchIndex.hpp"
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

// The health as activities pass one at a time in trace order (analyze on a huge run reads
// them without holding them). What it keeps is compact launch records, not activities:
// each API call's correlation id and start (16 bytes, by rank) and each GPU work item's
// rank, correlation, start and graph flags (24 bytes), joined at finish by LaunchJoin's
// rule (the first call of the work's rank and correlation in trace order is its launch).
// analyze_trace_health is this over every activity of a trace.
class TraceHealthAccumulator {
  public:
    // The counts kept beside the activities (dropped records, CUPTI's metadata), the
    // capture window and the lanes' ranks come from `header` (a trace, with or without its
    // activities).
    explicit TraceHealthAccumulator(const Trace& header);
    void add(const Activity& a);
    [[nodiscard]] TraceHealth finish() &&;

  private:
    struct Work {
        std::uint64_t correlation = 0;
        std::int64_t start_ns = 0;
        std::int32_t rank = 0;
        bool graph = false;         // graph_id != 0
        bool graph_kernel = false;  // a kernel launched from a graph
    };
    TraceHealth health_;
    std::int64_t capture_begin_ns_ = 0;
    std::int64_t capture_end_ns_ = 0;
    std::vector<std::int32_t> lane_ranks_;
    LaunchJoin<std::int64_t> launches_;  // each launch's start
    std::vector<Work> work_;
};

TraceHealth analyze_trace_health(const Trace& trace);

}  // namespace trainscope::profiler
