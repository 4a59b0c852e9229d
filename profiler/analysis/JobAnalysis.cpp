#include "profiler/analysis/JobAnalysis.hpp"

#include <utility>

#include "profiler/analysis/HostOpsAsWork.hpp"

namespace trainscope::profiler {

JobAnalysisAccumulator::JobAnalysisAccumulator(const Trace& header, bool host_ops)
    : header_(header), work_(header, host_ops), exposed_(header) {}

JobAnalysis JobAnalysisAccumulator::finish() && {
    JobAnalysis out;
    const std::map<std::int32_t, RankWork> work = std::move(work_).finish();
    out.ranks = rank_time_breakdown(work);
    out.stragglers = analyze_stragglers(header_);
    out.bandwidth = analyze_collective_bandwidth(header_);
    out.exposed = std::move(exposed_).finish(work);
    return out;
}

JobAnalysis analyze_job(const Trace& trace) {
    JobAnalysisAccumulator job(trace, is_host_op_trace(trace));
    for (const Activity& a : trace.activities)
        job.add(a);
    return std::move(job).finish();
}

}  // namespace trainscope::profiler
