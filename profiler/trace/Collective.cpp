#include "profiler/trace/Collective.hpp"

#include <array>
#include <utility>

namespace trainscope::profiler {

namespace {
constexpr std::array<std::pair<CollectiveKind, std::string_view>, 12> kNames{{
    {CollectiveKind::Other, "other"},
    {CollectiveKind::AllReduce, "all_reduce"},
    {CollectiveKind::AllGather, "all_gather"},
    {CollectiveKind::ReduceScatter, "reduce_scatter"},
    {CollectiveKind::Broadcast, "broadcast"},
    {CollectiveKind::Reduce, "reduce"},
    {CollectiveKind::AllToAll, "all_to_all"},
    {CollectiveKind::Send, "send"},
    {CollectiveKind::Recv, "recv"},
    {CollectiveKind::Barrier, "barrier"},
    {CollectiveKind::Gather, "gather"},
    {CollectiveKind::Scatter, "scatter"},
}};
}  // namespace

std::string_view to_string(CollectiveKind kind) {
    for (const auto& [k, name] : kNames) {
        if (k == kind)
            return name;
    }
    return "other";
}

std::optional<CollectiveKind> collective_kind_from_string(std::string_view name) {
    for (const auto& [k, n] : kNames) {
        if (n == name)
            return k;
    }
    return std::nullopt;
}

namespace {
constexpr std::string_view kControlSuffix = " (control)";
}  // namespace

std::string control_collective_activity_name(std::string_view kind) {
    std::string name(kind);
    name += kControlSuffix;
    return name;
}

bool is_control_collective_activity_name(std::string_view name) {
    return name.size() > kControlSuffix.size() &&
           name.substr(name.size() - kControlSuffix.size()) == kControlSuffix;
}

double bus_bandwidth_factor(CollectiveKind kind, std::int32_t ranks) {
    if (ranks <= 0)
        return 0.0;
    const double n = static_cast<double>(ranks);
    switch (kind) {
        case CollectiveKind::AllReduce:
            return 2.0 * (n - 1.0) / n;
        case CollectiveKind::AllGather:
        case CollectiveKind::ReduceScatter:
        case CollectiveKind::AllToAll:
        case CollectiveKind::Gather:
        case CollectiveKind::Scatter:
            return (n - 1.0) / n;
        case CollectiveKind::Broadcast:
        case CollectiveKind::Reduce:
        case CollectiveKind::Send:
        case CollectiveKind::Recv:
            return 1.0;
        case CollectiveKind::Barrier:
        case CollectiveKind::Other:
            return 0.0;
    }
    return 0.0;
}

}  // namespace trainscope::profiler
