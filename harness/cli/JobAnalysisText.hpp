#pragma once

#include "profiler/trace/Trace.hpp"

namespace trainscope::harness {

// `analyze` on a distributed job's trace: per-rank temporal breakdown and overlap,
// stragglers with the slowest rank named, collective bandwidth, exposed communication
// per step. `top` bounds the longer lists.
void print_job_analysis(const profiler::Trace& trace, int top);

// `analyze --mode hta`: Holistic Trace Analysis's temporal breakdown and
// communication/computation overlap per rank, laid out as its DataFrames print.
void print_hta_analysis(const profiler::Trace& trace);

}  // namespace trainscope::harness
