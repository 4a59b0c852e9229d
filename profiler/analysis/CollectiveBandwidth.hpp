#pragma once

#include <cstdint>
#include <vector>

#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Collective bandwidth per kind and message size, with nccl-tests' definitions:
// algbw = size / time, busbw = algbw × bus_bandwidth_factor(kind, ranks), where size is
// the message's bytes (CollectiveCall::bytes) and time a call's duration on its rank.
struct CollectiveBandwidthRow {
    CollectiveKind kind = CollectiveKind::Other;
    std::int64_t bytes = 0;     // 0: the trace does not say (no element count or dtype)
    std::int32_t ranks = 0;     // group size (the world size when the trace does not say)
    std::int64_t calls = 0;     // over all ranks
    std::int64_t total_ns = 0;  // summed call durations
    double mean_us = 0.0;
    double algbw_gbps = 0.0;  // GB/s (1e9 bytes), from the mean duration; 0 when bytes is 0
    double busbw_gbps = 0.0;
};

// Calls starting in the window, one row per (kind, bytes, ranks), by kind then size.
std::vector<CollectiveBandwidthRow> analyze_collective_bandwidth(const Trace& trace,
                                                                 const TimeWindow& window = {});

}  // namespace trainscope::profiler
