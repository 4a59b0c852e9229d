#pragma once

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Sets Activity::depth on host and NVTX lanes from how the intervals nest: an activity
// inside another one on the same lane is one level deeper. GPU stream lanes keep
// depth 0. Sorts the trace (Trace::sort) first. Partially overlapping (not nested)
// intervals are treated as siblings.
void assign_nesting_depths(Trace& trace);

}  // namespace trainscope::profiler
