#pragma once

#include <cstdint>
#include <string>

namespace trainscope::profiler {

// A row of the timeline. GPU work lives on (device, stream); host work and API calls
// on (process, thread); NVTX ranges on their own lane per (process, thread, domain).
enum class LaneKind : std::uint8_t {
    GpuStream = 0,
    HostThread = 1,
    Nvtx = 2,
};

struct Lane {
    LaneKind kind = LaneKind::GpuStream;
    std::int32_t device = -1;           // GPU ordinal; -1 for host lanes
    std::int64_t stream_or_thread = 0;  // CUDA stream id or OS thread id
    std::int64_t process = 0;
    std::string name;  // display name, e.g. "GPU 0 · stream 7" or "main thread"
};

}  // namespace trainscope::profiler
