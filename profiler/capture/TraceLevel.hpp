#pragma once

#include <optional>
#include <string_view>

namespace trainscope::profiler {

// How much a run records. off: nothing; kernels: GPU work only (kernels, memcpy,
// memset) plus what joins it (API calls and NVTX ranges are not kept); full: everything
// the capture can see (API calls, NVTX ranges, synchronization, overhead, counters).
enum class TraceLevel : unsigned char {
    Off = 0,
    Kernels = 1,
    Full = 2,
};

// "off" | "kernels" | "full" (exact, lowercase); nullopt for anything else.
std::optional<TraceLevel> parse_trace_level(std::string_view text);
std::string_view to_string(TraceLevel level);

}  // namespace trainscope::profiler
