#pragma once

#include <vector>

#include "profiler/trace/Trace.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// The run-level numbers a trace yields, stored as metrics so that runs.csv, compare and
// the GUI can show them without reloading the trace: GPU busy % over the kernel span
// (all devices pooled by summing), kernel count and time, tensor-core share, exposed
// copy time, dropped records.
std::vector<Metric> compute_trace_metrics(const profiler::Trace& trace);

}  // namespace trainscope::reports
