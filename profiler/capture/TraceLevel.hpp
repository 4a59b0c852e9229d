#pragma once

#include <optional>
#include <string_view>

namespace trainscope::profiler {

// How much a run records. off: nothing; kernels: the work (GPU kernels, memcpy, memset;
// the CPU backend's ops) and the NVTX phase ranges that say which step and phase it
// belongs to (a few per step); full: everything the capture can see (also runtime and
// driver API calls, synchronization, overhead, counters).
enum class TraceLevel : unsigned char {
    Off = 0,
    Kernels = 1,
    Full = 2,
};

// "off" | "kernels" | "full" (exact, lowercase); nullopt for anything else.
std::optional<TraceLevel> parse_trace_level(std::string_view text);
std::string_view to_string(TraceLevel level);

}  // namespace trainscope::profiler
