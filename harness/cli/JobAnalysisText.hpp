#pragma once

#include "profiler/analysis/JobAnalysis.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::harness {

// `analyze` on a distributed job's trace: per-rank temporal breakdown and overlap,
// stragglers with the slowest rank named, collective bandwidth, exposed communication
// per step. `top` bounds the longer lists. `trace`: its lanes, names, metadata and
// collectives (a stored trace's header); `job`: its analyze_job or JobAnalysisAccumulator's.
void print_job_analysis(const profiler::Trace& trace, const profiler::JobAnalysis& job, int top);

// `analyze --mode hta`: Holistic Trace Analysis's temporal breakdown and
// communication/computation overlap per rank, laid out as its DataFrames print.
// `rows`: analyze_rank_time_breakdown's with BreakdownDefinitions::Hta.
void print_hta_analysis(const std::vector<profiler::RankTimeBreakdown>& rows);

}  // namespace trainscope::harness
