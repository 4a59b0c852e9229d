#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "profiler/analysis/KernelCategory.hpp"
#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Duration statistics of a group of GPU activities. share = total / total of all
// groups (kernels + memcpy + memset), in [0, 1].
struct DurationStats {
    std::int64_t count = 0;
    std::int64_t total_ns = 0;
    std::int64_t min_ns = 0;
    std::int64_t max_ns = 0;
    double mean_ns = 0.0;
    double share = 0.0;
};

struct KernelNameStats {
    std::string name;
    KernelCategory category = KernelCategory::Other;
    DurationStats stats;
    std::size_t longest = 0;  // index into trace.activities of the longest instance
};

struct KernelCategoryStats {
    KernelCategory category = KernelCategory::Other;
    DurationStats stats;
};

struct KernelBreakdown {
    std::int64_t total_ns = 0;                     // summed durations (not a union) of all GPU work
    std::vector<KernelNameStats> by_name;          // by total time, largest first
    std::vector<KernelCategoryStats> by_category;  // categories with work, largest first
};

// GPU time by kernel name and by category over kernels, memcpys and memsets (copies
// fall in the memcpy/memset category regardless of name); in a CPU-backend trace
// (is_host_op_trace) over its host ops, the device's work there, each by its self time
// (op_self_times: nested ops, as in a PyTorch CPU trace, count each instant once, so the
// total is the time the ops cover and min/max/longest are of self time). Only the work that
// starts inside `window` (whole activities, not clipped: adjacent windows count each
// activity once, with its full duration). Durations are summed, so two kernels
// overlapping on two streams both count fully.
KernelBreakdown analyze_kernel_breakdown(const Trace& trace, const TimeWindow& window = {});

}  // namespace trainscope::profiler
