#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profiler/analysis/CommunicationNames.hpp"
#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/analysis/LaunchIndex.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Communication not hidden under computation, per rank and training step. A step is a
// host range named as one (is_training_step_name: ProfilerStep#N, NVTX "step"); a piece
// of communication (NCCL/RCCL kernel, MPI collective) belongs to the step in which it
// was launched (its launching API call by correlation; else its own start); its exposed
// part is what no compute work of the rank (RankWork::compute) covers. A rank without
// step ranges gets one row over the whole trace, named "(whole trace)".
struct ExposedCommunicationRow {
    std::int32_t rank = 0;
    std::string step;  // the step range's name
    std::int64_t step_start_ns = 0;
    std::int64_t communication_ns = 0;  // union of the step's communication
    std::int64_t exposed_ns = 0;

    [[nodiscard]] double exposed_fraction() const {
        return communication_ns > 0
                   ? static_cast<double>(exposed_ns) / static_cast<double>(communication_ns)
                   : 0.0;
    }
};

// Rows by rank, then step start; only steps starting in the window.
std::vector<ExposedCommunicationRow> analyze_exposed_communication(const Trace& trace,
                                                                   const TimeWindow& window = {});

// analyze_exposed_communication as activities pass one at a time in trace order (the
// whole-trace function is this fed every activity): per rank its step ranges, its
// communication pieces with their correlation, and (16 bytes each) the host activities
// that carry a correlation id, of which a piece's launch is the first in trace order;
// launches are joined to the pieces at finish, so the order of lanes does not matter.
class ExposedCommunicationAccumulator {
  public:
    // `header`: the trace's lanes and names; it must outlive the accumulator.
    explicit ExposedCommunicationAccumulator(const Trace& header);
    void add(const Activity& a);
    // `work`: the ranks' work with no window (work_by_rank(trace)), whose compute hides
    // the communication.
    [[nodiscard]] std::vector<ExposedCommunicationRow> finish(
        const std::map<std::int32_t, RankWork>& work, const TimeWindow& window = {}) &&;

  private:
    struct Step {
        std::int64_t start_ns = 0;
        StringId name = kNoString;
    };
    struct Piece {
        std::uint64_t correlation = 0;
        Interval span;
    };
    struct RankParts {
        std::vector<Step> steps;
        std::vector<Piece> communication;
    };
    const Trace& header_;
    std::map<std::int32_t, RankParts> parts_;
    LaunchJoin<std::int64_t> launches_;  // host calls with a correlation id: their starts
    std::vector<signed char> step_name_;
    CommunicationNames comm_names_;
};

}  // namespace trainscope::profiler
