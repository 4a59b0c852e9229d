#pragma once

#include <cstdint>
#include <string>

namespace trainscope::profiler {

// A row of the timeline. GPU work lives on (device, stream); host work and API calls
// on (process, thread); NVTX ranges on their own lane per (process, thread, domain);
// collectives a rank issued on their own lane per (process, thread) or (device, stream).
// The values are stored (lanes.kind); new kinds go at the end.
enum class LaneKind : std::uint8_t {
    GpuStream = 0,
    HostThread = 1,
    Nvtx = 2,
    Communication = 3,
};

struct Lane {
    LaneKind kind = LaneKind::GpuStream;
    std::int32_t device = -1;           // GPU ordinal; -1 for host lanes
    std::int64_t stream_or_thread = 0;  // CUDA stream id or OS thread id
    std::int64_t process = 0;
    std::string name;  // display name, e.g. "GPU 0 · stream 7" or "main thread"
    // The rank of the distributed job this lane belongs to; 0 in a one-process trace.
    // Part of the lane's identity: two ranks on two nodes may share a pid.
    std::int32_t rank = 0;
};

}  // namespace trainscope::profiler
