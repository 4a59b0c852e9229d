#pragma once

#include <string>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// AMD TraceLens's "GPU timeline" breakdown (TraceLens/TreePerf/gpu_event_analyser.py),
// reproduced so our numbers can be checked against its regression files:
//  - GPU events: kernels, memcpys and memsets whose launching runtime/driver call is in
//    the trace (joined by correlation id);
//  - computation = union of kernels and memsets whose name lacks "nccl";
//    communication = union of those with "nccl"; memcpy = union of memcpys;
//  - busy = union of all; total = last end - first start; idle = total - busy;
//  - exposed comm = comm minus computation; exposed memcpy = memcpy minus computation
//    minus communication.
// Differs from analyze_gpu_busy (kernels only, integer ns, per device): memsets count
// as computation, all devices are pooled, and when the source file had fractional µs
// the arithmetic is done as TraceLens does it, in double µs on the file's own
// timestamps (ts + dur rounded to double), so results match it to the last bit.
struct TracelensTimelineRow {
    std::string type;  // "computation_time", "exposed_comm_time", ...
    double time_ms = 0.0;
    double percent = 0.0;  // of total_time
};

// The eight rows of TraceLens's gpu_timeline.csv, in its order. Empty when the trace
// has no launched GPU work.
std::vector<TracelensTimelineRow> tracelens_gpu_timeline(const Trace& trace);

}  // namespace trainscope::profiler
