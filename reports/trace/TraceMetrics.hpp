#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <unordered_map>
#include <vector>

#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/trace/Trace.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// The run-level numbers a trace yields, stored as metrics so that runs.csv, compare and
// the GUI can show them without reloading the trace: GPU busy % over the kernel span
// (all devices pooled by summing), kernel count and time, tensor-core share, exposed
// copy time, dropped records; for a trace of host ops without GPU work (a CPU run), the
// share of the op span the ops covered.
std::vector<Metric> compute_trace_metrics(const profiler::Trace& trace);

// The same numbers from activities that pass one at a time (a streamed import, and
// compute_trace_metrics itself): what it holds is one interval per kernel and memcpy
// (per host op in a host-op trace), joined as they come when they touch, not the
// activities.
class TraceMetricsAccumulator {
  public:
    // `host_op_trace`: the trace holds no GPU work (no kernel, memcpy or memset), so its
    // host ops stand for the device's work (profiler::is_host_op_trace).
    TraceMetricsAccumulator(const profiler::StringTable& strings,
                            std::span<const profiler::Lane> lanes, bool host_op_trace);
    void add(const profiler::Activity& a);
    [[nodiscard]] std::vector<Metric> finish(std::int64_t dropped_records) const;

  private:
    using ByDevice = std::map<std::int32_t, std::vector<profiler::Interval>>;
    static void append(std::vector<profiler::Interval>& to, const profiler::Activity& a);

    const profiler::StringTable& strings_;
    std::span<const profiler::Lane> lanes_;
    bool host_op_trace_;
    ByDevice kernels_;
    ByDevice copies_;
    ByDevice host_ops_;
    std::unordered_map<profiler::StringId, bool> tensor_core_names_;
    std::int64_t kernel_count_ = 0;
    std::int64_t kernel_ns_ = 0;
    std::int64_t tensor_core_ns_ = 0;
    std::int64_t activities_ = 0;
};

}  // namespace trainscope::reports
