#pragma once

#include <chrono>
#include <cstdint>

namespace trainscope::profiler {

// The one clock of every capture: std::chrono::steady_clock in integer nanoseconds.
// Host ranges (HostTracer) read it directly, and CuptiTracer registers it as CUPTI's
// timestamp callback, so GPU records arrive on the same clock without any fitting.
inline std::int64_t host_clock_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace trainscope::profiler
