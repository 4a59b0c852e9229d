#include "profiler/trace/ActivityKind.hpp"

#include <array>
#include <utility>

namespace trainscope::profiler {

namespace {
constexpr std::array<std::pair<ActivityKind, std::string_view>, 10> kNames{{
    {ActivityKind::Kernel, "kernel"},
    {ActivityKind::Memcpy, "memcpy"},
    {ActivityKind::Memset, "memset"},
    {ActivityKind::Synchronization, "sync"},
    {ActivityKind::RuntimeApi, "runtime"},
    {ActivityKind::DriverApi, "driver"},
    {ActivityKind::NvtxRange, "nvtx"},
    {ActivityKind::HostOp, "host_op"},
    {ActivityKind::Overhead, "overhead"},
    {ActivityKind::Collective, "collective"},
}};
}  // namespace

std::string_view to_string(ActivityKind kind) {
    for (const auto& [k, name] : kNames) {
        if (k == kind)
            return name;
    }
    return "unknown";
}

std::optional<ActivityKind> activity_kind_from_string(std::string_view name) {
    for (const auto& [k, n] : kNames) {
        if (n == name)
            return k;
    }
    return std::nullopt;
}

std::string_view to_string(CopyKind kind) {
    switch (kind) {
        case CopyKind::HostToDevice:
            return "HtoD";
        case CopyKind::DeviceToHost:
            return "DtoH";
        case CopyKind::DeviceToDevice:
            return "DtoD";
        case CopyKind::HostToHost:
            return "HtoH";
        case CopyKind::PeerToPeer:
            return "PtoP";
        case CopyKind::Unknown:
            break;
    }
    return "unknown";
}

}  // namespace trainscope::profiler
