#include "profiler/analysis/LaunchIndex.hpp"

namespace trainscope::profiler {

bool is_launch_call(ActivityKind kind) {
    return kind == ActivityKind::RuntimeApi || kind == ActivityKind::DriverApi;
}

std::vector<std::int32_t> lane_ranks(std::span<const Lane> lanes) {
    std::vector<std::int32_t> ranks;
    ranks.reserve(lanes.size());
    for (const Lane& lane : lanes)
        ranks.push_back(lane.rank);
    return ranks;
}

LaunchIndex::LaunchIndex(const Trace& trace) : lane_ranks_(lane_ranks(trace.lanes)) {
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& a = trace.activities[i];
        launches_.add(lane_ranks_.at(a.lane), a, i);
    }
    launches_.seal();
}

std::optional<std::size_t> LaunchIndex::launch_of(const Activity& work) const {
    if (const std::size_t* launch = launches_.find(lane_ranks_.at(work.lane), work.correlation))
        return *launch;
    return std::nullopt;
}

}  // namespace trainscope::profiler
