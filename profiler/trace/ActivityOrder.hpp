#pragma once

#include "profiler/trace/Activity.hpp"

namespace trainscope::profiler {

// Trace::sort's order: by lane, then start, the longer first among equal starts (so
// per-lane slices are contiguous and parents come before their children). A viewer that
// indexes a stored trace by position checks with it that the stored order is this one.
inline bool activity_sorted_before(const Activity& a, const Activity& b) {
    if (a.lane != b.lane)
        return a.lane < b.lane;
    if (a.start_ns != b.start_ns)
        return a.start_ns < b.start_ns;
    return a.end_ns > b.end_ns;
}

}  // namespace trainscope::profiler
