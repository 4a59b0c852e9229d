#pragma once

#include <array>
#include <cstdint>

#include "profiler/trace/ActivityKind.hpp"

namespace trainscope::profiler {

using StringId = std::uint32_t;
using LaneId = std::uint32_t;
inline constexpr StringId kNoString = 0;  // StringTable reserves id 0 for ""

// One interval on the timeline, in nanoseconds on the trace's single clock (relative
// to Trace::base_ns). Kind-specific fields are zero when they do not apply. Kept flat
// and compact: a million of them must load and paint fast.
struct Activity {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    std::uint64_t correlation = 0;  // joins a launch (API call) to its GPU work; 0 = none
    // memcpy / memset / collective size; an op (host op, or the NVTX range of an op
    // on CUDA): the minimum bytes it must move, from its NVTX payload (OpWorkPayload).
    std::int64_t bytes = 0;
    LaneId lane = 0;
    StringId name = kNoString;  // demangled kernel name, API function, NVTX message, op
    ActivityKind kind = ActivityKind::Kernel;
    CopyKind copy_kind = CopyKind::Unknown;
    std::uint16_t depth = 0;  // nesting depth within its lane (NVTX, host ops)
    std::array<std::int32_t, 3> grid{};
    std::array<std::int32_t, 3> block{};
    std::int32_t registers_per_thread = 0;
    std::int32_t shared_memory_bytes = 0;  // static + dynamic
    std::uint32_t graph_id = 0;            // CUDA graph the kernel was launched from; 0 = none
    std::int32_t device = -1;
    // An op's floating-point operations (multiply-add = 2), from its NVTX payload; 0 for
    // everything else and for ops without a payload. float as the payload carries it, and
    // so that it fits the padding the fields above leave.
    float flops = 0.0F;

    [[nodiscard]] std::int64_t duration_ns() const { return end_ns - start_ns; }
};
// The budget of the timeline and the importers (docs/architecture.md): a field more is a
// decision, not an accident.
static_assert(sizeof(Activity) == 88, "Activity grew: update its budget in the docs");

}  // namespace trainscope::profiler
