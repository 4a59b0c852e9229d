// TimelineData's launch index: which GPU work an API call launched and which call launched
// a piece of GPU work, as pairs of activity indexes sorted for lookup, made once as the
// timeline is built (the correlation ids themselves are not kept).
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "gui/timeline/TimelineData.hpp"

namespace trainscope::gui {

namespace {

// The partner of `activity` in pairs sorted by their first member.
template <typename Pair>
std::optional<std::uint32_t> partner_in(const std::vector<Pair>& pairs, std::uint32_t activity) {
    const auto it = std::lower_bound(pairs.begin(), pairs.end(), activity,
                                     [](const Pair& p, std::uint32_t a) { return p.from < a; });
    if (it == pairs.end() || it->from != activity)
        return std::nullopt;
    return it->to;
}

}  // namespace

std::optional<std::uint32_t> TimelineData::gpuWorkLaunchedBy(std::uint32_t activity) const {
    return partner_in(work_of_launch_, activity);
}

std::optional<std::uint32_t> TimelineData::launchOf(std::uint32_t work) const {
    return partner_in(launch_of_work_, work);
}

std::vector<std::uint32_t> TimelineData::launchRankKeys(std::span<const profiler::Lane> lanes) {
    std::vector<std::int32_t> ranks;
    ranks.reserve(lanes.size());
    for (const profiler::Lane& lane : lanes)
        ranks.push_back(lane.rank);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    if (ranks.size() > std::size_t{1} << 30) {
        throw std::length_error("the trace holds " + std::to_string(ranks.size()) +
                                " ranks; the timeline joins launches for at most 2^30");
    }
    std::vector<std::uint32_t> keys;
    keys.reserve(lanes.size());
    for (const profiler::Lane& lane : lanes)
        keys.push_back(static_cast<std::uint32_t>(
            std::lower_bound(ranks.begin(), ranks.end(), lane.rank) - ranks.begin()));
    return keys;
}

TimelineData::Correlated TimelineData::correlated(std::uint64_t correlation, std::uint32_t rank_key,
                                                  Category category, std::uint32_t index) {
    const Correlated::Role role = is_gpu_work(category)              ? Correlated::kWork
                                  : category == Category::RuntimeApi ? Correlated::kApi
                                                                     : Correlated::kOther;
    return Correlated{correlation, rank_key << 2 | role, index};
}

void TimelineData::indexLaunches(std::vector<Correlated> items) {
    // Grouped by (rank, correlation id), each group in index order: its first GPU work is
    // what every other activity of the group launched, its first API call what launched
    // every GPU activity of the group (the first among equals, as the lookups by id gave).
    std::sort(items.begin(), items.end(), [](const Correlated& a, const Correlated& b) {
        return std::make_tuple(a.rank_role >> 2, a.correlation, a.index) <
               std::make_tuple(b.rank_role >> 2, b.correlation, b.index);
    });
    std::size_t works = 0;
    std::size_t launches = 0;
    const auto for_each_group = [&items](const auto& body) {
        for (std::size_t g = 0; g < items.size();) {
            std::size_t e = g + 1;
            while (e < items.size() && items[e].rank_role >> 2 == items[g].rank_role >> 2 &&
                   items[e].correlation == items[g].correlation)
                ++e;
            std::optional<std::uint32_t> work;
            std::optional<std::uint32_t> api;
            for (std::size_t k = g; k < e; ++k) {
                const auto role = items[k].rank_role & 3U;
                if (role == Correlated::kWork && !work)
                    work = items[k].index;
                if (role == Correlated::kApi && !api)
                    api = items[k].index;
            }
            body(g, e, work, api);
            g = e;
        }
    };
    // Counted first: both vectors are allocated once, without growth slack.
    for_each_group([&](std::size_t g, std::size_t e, auto work, auto api) {
        for (std::size_t k = g; k < e; ++k) {
            const bool is_work = (items[k].rank_role & 3U) == Correlated::kWork;
            works += is_work && api ? 1 : 0;
            launches += !is_work && work ? 1 : 0;
        }
    });
    launch_of_work_.reserve(works);
    work_of_launch_.reserve(launches);
    for_each_group([&](std::size_t g, std::size_t e, auto work, auto api) {
        for (std::size_t k = g; k < e; ++k) {
            const bool is_work = (items[k].rank_role & 3U) == Correlated::kWork;
            if (is_work && api)
                launch_of_work_.push_back({items[k].index, *api});
            else if (!is_work && work)
                work_of_launch_.push_back({items[k].index, *work});
        }
    });
    const auto by_from = [](const LaunchPair& a, const LaunchPair& b) { return a.from < b.from; };
    std::sort(launch_of_work_.begin(), launch_of_work_.end(), by_from);
    std::sort(work_of_launch_.begin(), work_of_launch_.end(), by_from);
}

}  // namespace trainscope::gui
