#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "profiler/trace/Activity.hpp"

namespace trainscope::profiler {

// What a collective does. The numeric values are stored (collectives.kind), so they never
// change meaning; new kinds go at the end.
enum class CollectiveKind : std::uint8_t {
    Other = 0,
    AllReduce = 1,
    AllGather = 2,
    ReduceScatter = 3,
    Broadcast = 4,
    Reduce = 5,
    AllToAll = 6,
    Send = 7,
    Recv = 8,
    Barrier = 9,
    Gather = 10,
    Scatter = 11,
};

// "all_reduce", "all_gather", …: the spelling the CLI, CSVs and the GUI show.
std::string_view to_string(CollectiveKind kind);
std::optional<CollectiveKind> collective_kind_from_string(std::string_view name);

// A control collective's activity on the communication lane (the communicator's
// host-side collectives between steps, group kControlCollectiveGroup of
// common/CollectiveMessage.hpp) is named "<kind> (control)", so that the timeline says
// what it is and analyses of activities can leave it out (analysis/ControlCollectives).
std::string control_collective_activity_name(std::string_view kind);
bool is_control_collective_activity_name(std::string_view name);

// The factor that turns a collective's algorithm bandwidth into its bus bandwidth over
// `ranks` ranks, as nccl-tests defines it (all-reduce 2(n-1)/n; all-gather, reduce-scatter
// and all-to-all (n-1)/n; broadcast, reduce, send and receive 1). 0 for a barrier and for
// kinds with no defined factor.
double bus_bandwidth_factor(CollectiveKind kind, std::int32_t ranks);

// One collective as one rank took part in it: the MPI or NCCL call on the CPU, or the
// communication kernel (or the profiler's record of the call) on the GPU. Held beside the
// activities, not inside them, so an Activity stays small; the matching activity on the
// timeline lies on `lane` over [start_ns, end_ns].
struct CollectiveCall {
    std::int64_t start_ns = 0;  // on the trace's clock, as activities
    std::int64_t end_ns = 0;
    std::int64_t sequence = -1;  // position in its group's sequence of collectives; -1 unknown
    // Element count and bytes of the larger of the rank's input and output buffers: the
    // message for all-reduce, broadcast, reduce, send and receive; the whole gathered
    // buffer (n × each rank's part) for all-gather and reduce-scatter. That is the
    // nccl-tests "size", which its algorithm and bus bandwidths divide by the time.
    std::int64_t elements = 0;  // 0 unknown
    std::int64_t bytes = 0;
    std::int32_t rank = 0;        // global rank that took part
    std::int32_t group_size = 0;  // ranks in the group; 0 unknown
    LaneId lane = 0;
    StringId group = kNoString;  // process group / communicator name ("" = the world)
    StringId dtype = kNoString;  // element type as the source spells it ("float", "double")
    CollectiveKind kind = CollectiveKind::Other;

    [[nodiscard]] std::int64_t duration_ns() const { return end_ns - start_ns; }
};

}  // namespace trainscope::profiler
