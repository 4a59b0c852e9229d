#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace trainscope::profiler::detail {

// One NVTX push/pop or start/end range that has ended, as the injection saw it.
struct CompletedNvtxRange {
    std::string domain;  // "" for NVTX's default domain
    std::string message;
    std::uint32_t category = 0;
    // The event's 64-bit integer payload (NVTX_PAYLOAD_TYPE_(UNSIGNED_)INT64); -1 none.
    // Push/pop and start/end ranges both keep it.
    std::int64_t payload = -1;
    std::int64_t process = 0;
    std::int64_t thread = 0;    // OS thread id (gettid); a start/end range: the starting one
    std::int64_t start_ns = 0;  // host_clock_now_ns()
    std::int64_t end_ns = 0;
    // No depth: the trace nests ranges by their intervals (assign_nesting_depths), all
    // domains of a thread together; a domain's own depth is only nvtxRangePop's answer.
};

// Process-wide switch and store between the NVTX injection (which runs on whatever
// thread calls NVTX) and the HostTracer. Ranges are recorded only while recording.
void begin_recording_nvtx_ranges();
std::vector<CompletedNvtxRange> end_recording_nvtx_ranges();
bool nvtx_injection_attached();

}  // namespace trainscope::profiler::detail
