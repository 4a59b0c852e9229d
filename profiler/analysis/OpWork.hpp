#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// The ops of one name that carry work (Activity::flops or bytes from the op's NVTX
// payload) together: how often they ran, what they had to do and how long the device
// took. An op's FLOPs and bytes are its own (a conv op's exclude its nested bias op's), so
// its device time is its own too: in a host-op trace (CPU backend) the op's duration less
// that of the work-carrying ops nested in it; in a GPU trace the kernels launched inside
// the op's range and not inside a nested op's (project_host_ranges_to_gpu, innermost).
// Launches join their kernels within their own rank.
struct OpWorkTotals {
    std::string name;
    std::int64_t count = 0;
    double flops = 0.0;
    double bytes = 0.0;
    std::int64_t device_ns = 0;
};

// Whether an activity is an op that carries work (a host op with FLOPs or bytes from its
// payload): what the totals below are made of.
bool carries_op_work(const Activity& a);

// The metadata key the host tracer puts in every trace it records (merged into a CUDA
// run's, copied into a job's): the only source whose ops carry work (their NVTX payload).
inline constexpr const char* kHostTracerMetadataKey = "host.nvtx_injection";

// Whether a trace's activities may hold an op that carries work, from its header alone:
// false when no host tracer recorded into it (an imported trace), so no activity can.
bool may_carry_op_work(const Trace& header);

// Ops whose start lies in `window`, of every rank together; by device time, largest first
// (ties by name).
std::vector<OpWorkTotals> total_op_work_by_name(const Trace& trace,
                                                const TimeWindow& window = TimeWindow{});

// The same for each rank on its own (ops.csv's rows), by rank.
std::map<std::int32_t, std::vector<OpWorkTotals>> total_op_work_by_rank(
    const Trace& trace, const TimeWindow& window = TimeWindow{});

// The host ops in the trace that carry work (flops or bytes), as indices into
// trace.activities: the instances of op `name` (the GUI's roofline selects them).
std::vector<std::size_t> op_instances(const Trace& trace, const std::string& name);

}  // namespace trainscope::profiler
