#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// The ops of one name that carry work (Activity::flops or bytes from the op's NVTX
// payload) together: how often they ran, what they had to do and how long the device
// took. Device time is the op's own duration in a host-op trace (CPU backend), and the
// kernels launched inside the op's range (project_host_ranges_to_gpu) in a GPU trace.
struct OpWorkTotals {
    std::string name;
    std::int64_t count = 0;
    double flops = 0.0;
    double bytes = 0.0;
    std::int64_t device_ns = 0;
};

// Ops whose start lies in `window`; by device time, largest first (ties by name).
std::vector<OpWorkTotals> total_op_work_by_name(const Trace& trace,
                                                const TimeWindow& window = TimeWindow{});

// The host ops in the trace that carry work (flops or bytes), as indices into
// trace.activities: the instances of op `name` (the GUI's roofline selects them).
std::vector<std::size_t> op_instances(const Trace& trace, const std::string& name);

}  // namespace trainscope::profiler
