#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "profiler/analysis/DeviceWorkSummary.hpp"
#include "profiler/analysis/TensorCoreAnalysis.hpp"
#include "profiler/trace/Trace.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// The run-level numbers a trace yields, stored as metrics so that runs.csv, compare and
// the GUI can show them without reloading the trace: GPU busy % over the kernel span
// (all devices, each a (rank, device), pooled by summing), kernel count and time,
// tensor-core share, exposed copy time, dropped records; for a trace of host ops without
// GPU work (a CPU run), the share of the op span the ops covered.
// The trace is held already: its work is sorted in memory, not in $TMPDIR.
std::vector<Metric> compute_trace_metrics(const profiler::Trace& trace);

// The same numbers from activities that pass one at a time (a streamed import, and
// compute_trace_metrics itself). The figures are the profiler's own: busy and overlap
// from DeviceWorkSummary (the figures of analyze_gpu_busy and analyze_copy_compute_overlap
// in little memory, whatever the trace's size), the tensor-core share from
// TensorCoreAccumulator; this class only maps them to metric tags.
class TraceMetricsAccumulator {
  public:
    // `host_op_trace`: the trace holds no GPU work (no kernel, memcpy or memset), so its
    // host ops stand for the device's work (profiler::is_host_op_trace). `run_capacity`
    // as DeviceWorkSummary's.
    TraceMetricsAccumulator(const profiler::StringTable& strings,
                            std::span<const profiler::Lane> lanes, bool host_op_trace,
                            std::size_t run_capacity = profiler::DeviceWorkSummary::kRunCapacity);
    void add(const profiler::Activity& a);
    // Once, after the last add.
    [[nodiscard]] std::vector<Metric> finish(std::int64_t dropped_records) &&;

  private:
    bool host_op_trace_;
    profiler::DeviceWorkSummary work_;
    profiler::TensorCoreAccumulator tensor_cores_;
    std::int64_t activities_ = 0;
};

}  // namespace trainscope::reports
