#pragma once

#include <cstdint>
#include <map>
#include <vector>

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

}  // namespace trainscope::profiler
