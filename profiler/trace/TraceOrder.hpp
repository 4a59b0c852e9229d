#pragma once

namespace trainscope::profiler {

// The order of activities within a lane: by start, then the longer first, so that a
// parent comes before the children it encloses (what nesting depth and self time rely on).
// Templates so that a sort key holding the same fields orders the same way.
template <typename T>
constexpr bool starts_before(const T& a, const T& b) {
    if (a.start_ns != b.start_ns)
        return a.start_ns < b.start_ns;
    return a.end_ns > b.end_ns;
}

// Trace::sort's order: by lane, then starts_before, so that each lane's activities are
// contiguous. The sorter's runs on disk, their merge and the analyses that sort a subset
// all use this one comparator.
template <typename T>
constexpr bool in_trace_order(const T& a, const T& b) {
    if (a.lane != b.lane)
        return a.lane < b.lane;
    return starts_before(a, b);
}

}  // namespace trainscope::profiler
