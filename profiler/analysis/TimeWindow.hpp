#pragma once

#include <cstdint>
#include <limits>

namespace trainscope::profiler {

// A half-open time window [begin_ns, end_ns) on the trace clock (relative to
// Trace::base_ns): the part of a trace an analysis looks at, e.g. a range the user
// selected on the timeline. The default window holds the whole trace.
struct TimeWindow {
    std::int64_t begin_ns = std::numeric_limits<std::int64_t>::min();
    std::int64_t end_ns = std::numeric_limits<std::int64_t>::max();

    [[nodiscard]] bool contains(std::int64_t t_ns) const {
        return t_ns >= begin_ns && t_ns < end_ns;
    }
    [[nodiscard]] std::int64_t length_ns() const { return end_ns - begin_ns; }
};

}  // namespace trainscope::profiler
