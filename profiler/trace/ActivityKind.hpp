#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace trainscope::profiler {

// What happened on the timeline. The numeric values are stored in the results
// database (activities.kind), so they never change meaning; new kinds go at the end.
enum class ActivityKind : std::uint8_t {
    Kernel = 0,
    Memcpy = 1,
    Memset = 2,
    Synchronization = 3,
    RuntimeApi = 4,
    DriverApi = 5,
    NvtxRange = 6,
    HostOp = 7,
    Overhead = 8,
    // A collective (all-reduce, …) as one rank issued it; bytes is its message size, and
    // Trace::collectives holds the rest (kind, group, sequence, element count).
    Collective = 9,
};

std::string_view to_string(ActivityKind kind);
std::optional<ActivityKind> activity_kind_from_string(std::string_view name);

// Direction of a copy; stored as activities.copy_kind.
enum class CopyKind : std::uint8_t {
    Unknown = 0,
    HostToDevice = 1,
    DeviceToHost = 2,
    DeviceToDevice = 3,
    HostToHost = 4,
    PeerToPeer = 5,
};

std::string_view to_string(CopyKind kind);

}  // namespace trainscope::profiler
