#pragma once

#include <cstdint>

#include "profiler/trace/Activity.hpp"

namespace trainscope::profiler {

// A piece of device work (kernel, memcpy, memset, host op) on `lane` over [start, end):
// what the busy, overlap and summary tests build their traces from.
inline Activity work(ActivityKind kind, LaneId lane, std::int64_t start_ns, std::int64_t end_ns,
                     std::int32_t device = -1) {
    Activity a;
    a.kind = kind;
    a.lane = lane;
    a.start_ns = start_ns;
    a.end_ns = end_ns;
    a.device = device;
    return a;
}

}  // namespace trainscope::profiler
