#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "profiler/analysis/CommunicationNames.hpp"
#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// The ranks that have lanes in the trace, ascending ({0} for a one-process trace).
std::vector<std::int32_t> ranks_of(const Trace& trace);

// The part of a job's trace that belongs to one rank: its lanes (renumbered), their
// activities and the rank's collectives; world_size 1, so that every single-process
// analysis (busy time, kernel breakdown, NVTX) answers for that rank alone.
Trace trace_of_rank(const Trace& trace, std::int32_t rank);

// trace_of_rank as activities pass one at a time (trace_of_rank is this over the trace's
// vector): the rank's header, and each activity of the rank with its lane renumbered.
class RankSlice {
  public:
    // `trace`: a trace or its header (activities are not read); it must outlive the slice.
    RankSlice(const Trace& trace, std::int32_t rank);
    // trace_of_rank's trace without its activities.
    [[nodiscard]] Trace header() const;
    // False, leaving `a` as it is, when it is another rank's; else its lane renumbered.
    bool take(Activity& a) const {
        if (a.lane >= lane_map_.size() || lane_map_[a.lane] == kNone)
            return false;
        a.lane = lane_map_[a.lane];
        return true;
    }

  private:
    static constexpr LaneId kNone = std::numeric_limits<LaneId>::max();
    const Trace& trace_;
    std::int32_t rank_;
    std::vector<LaneId> lane_map_;
};

// One rank's device work, clipped to a window, as the per-rank analyses see it:
// compute = kernels (or, in a CPU-backend trace, backend ops) that are not
// communication; communication = NCCL/RCCL kernels and collectives (MPI calls);
// other = copies and sets. Each a sorted, disjoint union.
struct RankWork {
    std::vector<Interval> all;
    std::vector<Interval> compute;
    std::vector<Interval> communication;
    std::int64_t first_ns = 0;  // first start and last end of any work (0, 0 when none)
    std::int64_t last_ns = 0;
};
std::map<std::int32_t, RankWork> work_by_rank(const Trace& trace, const TimeWindow& window = {});

// work_by_rank as activities pass one at a time (work_by_rank is this fed every activity):
// each rank's work intervals, an interval that starts inside the one before it in its list
// joined to it (trace order, by lane then start, makes a stream's back-to-back work one
// interval), merged at finish; no activity is held.
class RankWorkAccumulator {
  public:
    // `header`: the trace's lanes and names (its activities are not read); it must outlive
    // the accumulator. `host_ops`: the trace is a CPU-backend one (is_host_op_trace).
    RankWorkAccumulator(const Trace& header, bool host_ops, const TimeWindow& window = {});
    void add(const Activity& a);
    [[nodiscard]] std::map<std::int32_t, RankWork> finish() &&;

  private:
    struct Raw {
        std::vector<Interval> all, compute, communication;
    };
    const Trace& header_;
    bool host_ops_;
    TimeWindow window_;
    std::map<std::int32_t, Raw> raw_;
    CommunicationNames comm_names_;
};

}  // namespace trainscope::profiler
