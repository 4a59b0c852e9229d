#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
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

// The breakdown from device work that passes one piece at a time (the GUI's loader reads a
// huge run's rows without holding them): analyze_kernel_breakdown is this over the work of
// its window, in trace order. `index` is the work's index in the trace (the longest
// instance), `duration_ns` what it counts for (a host op's self time in a host-op trace).
class KernelBreakdownAccumulator {
  public:
    explicit KernelBreakdownAccumulator(const StringTable& strings) : strings_(&strings) {}
    void add(const Activity& a, std::size_t index, std::int64_t duration_ns);
    [[nodiscard]] KernelBreakdown finish() &&;

  private:
    const StringTable* strings_;
    KernelBreakdown result_;
    std::unordered_map<StringId, std::size_t> name_index_;
    std::array<DurationStats, kKernelCategoryCount> categories_{};
};

}  // namespace trainscope::profiler
