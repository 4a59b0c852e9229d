#include "profiler/analysis/LaunchIndex.hpp"

namespace trainscope::profiler {

LaunchIndex::LaunchIndex(const Trace& trace) {
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& a = trace.activities[i];
        const bool api = a.kind == ActivityKind::RuntimeApi || a.kind == ActivityKind::DriverApi;
        if (api && a.correlation != 0)
            api_by_correlation_.emplace(a.correlation, i);
    }
}

std::optional<std::size_t> LaunchIndex::launch_of(std::uint64_t correlation) const {
    if (correlation == 0)
        return std::nullopt;
    if (auto it = api_by_correlation_.find(correlation); it != api_by_correlation_.end()) {
        return it->second;
    }
    return std::nullopt;
}

}  // namespace trainscope::profiler
