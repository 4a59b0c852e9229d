#pragma once

#include <optional>
#include <vector>

#include "profiler/analysis/CollectiveBandwidth.hpp"
#include "profiler/analysis/CollectiveMatching.hpp"
#include "profiler/analysis/ExposedCommunication.hpp"
#include "profiler/analysis/RankTimeBreakdown.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// What `analyze` prints of a distributed job as a whole (no window, our definitions):
// each rank's time breakdown, the stragglers at collectives, the collective bandwidth and
// the exposed communication per rank and step.
struct JobAnalysis {
    std::vector<RankTimeBreakdown> ranks;  // analyze_rank_time_breakdown's
    StragglerReport stragglers;            // analyze_stragglers's
    std::vector<CollectiveBandwidthRow> bandwidth;
    std::vector<ExposedCommunicationRow> exposed;
};

// The job analysis as activities pass one at a time: the per-rank work and the exposed
// communication from their accumulators; the stragglers and the bandwidth from the
// header's collectives, which a stored trace's header holds. analyze_job(trace) is this
// fed every activity.
class JobAnalysisAccumulator {
  public:
    // `header`: the trace's lanes, names and collectives (its activities are not read);
    // it must outlive the accumulator. `host_ops` as RankWorkAccumulator's.
    JobAnalysisAccumulator(const Trace& header, bool host_ops);
    void add(const Activity& a) {
        work_.add(a);
        exposed_.add(a);
    }
    [[nodiscard]] JobAnalysis finish() &&;

  private:
    const Trace& header_;
    RankWorkAccumulator work_;
    ExposedCommunicationAccumulator exposed_;
};

JobAnalysis analyze_job(const Trace& trace);

}  // namespace trainscope::profiler
