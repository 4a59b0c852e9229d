#include "profiler/analysis/LaunchIndex.hpp"

#include <algorithm>

#include "profiler/analysis/AscendingRunsSort.hpp"

namespace trainscope::profiler {

bool is_launch_call(ActivityKind kind) {
    return kind == ActivityKind::RuntimeApi || kind == ActivityKind::DriverApi;
}

LaunchIndex::LaunchIndex(const Trace& trace) {
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& a = trace.activities[i];
        if (is_launch_call(a.kind) && a.correlation != 0)
            api_by_correlation_.push_back({a.correlation, i});
    }
    // By index within a correlation: the first call in trace order comes first.
    sort_ascending_runs(api_by_correlation_.begin(), api_by_correlation_.end(),
                        [](const Entry& x, const Entry& y) {
                            return x.correlation != y.correlation ? x.correlation < y.correlation
                                                                  : x.index < y.index;
                        });
}

std::optional<std::size_t> LaunchIndex::launch_of(std::uint64_t correlation) const {
    if (correlation == 0)
        return std::nullopt;
    const auto it =
        std::lower_bound(api_by_correlation_.begin(), api_by_correlation_.end(), correlation,
                         [](const Entry& e, std::uint64_t c) { return e.correlation < c; });
    if (it != api_by_correlation_.end() && it->correlation == correlation)
        return it->index;
    return std::nullopt;
}

}  // namespace trainscope::profiler
