#pragma once

#include <QSize>
#include <QString>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "gui/timeline/TimelineData.hpp"
#include "profiler/analysis/CollectiveMatching.hpp"

class QPainter;

namespace trainscope::gui {

struct TimelineViewState;

// One rank's part in a matched collective: the activity on the timeline (its
// communication kernel, or its MPI call), when it arrived and how long it waited there
// for the last rank.
struct CollectiveInstance {
    std::uint32_t activity = 0;
    std::int32_t rank = 0;
    std::int64_t arrival_ns = 0;  // trace clock, as activities
    std::int64_t wait_ns = 0;     // last arrival - own arrival
};

// The collective a click picked, on every rank that joined it: the matched collective of
// profiler::match_collectives (the straggler analysis's), with each rank's instance.
struct CollectiveSelection {
    profiler::MatchedCollective matched;
    std::vector<CollectiveInstance> instances;  // by rank

    [[nodiscard]] bool empty() const { return instances.empty(); }
    // Last arrival - first arrival: how long the first rank waited for the straggler.
    [[nodiscard]] std::int64_t spreadNs() const { return matched.spread_ns(); }
};

// Finds the matched collective of an activity in a job's trace. Built on first use from
// profiler::match_collectives on the whole trace (one implementation of the matching:
// the straggler table and `trainscope analyze` read the same).
class CollectiveIndex {
  public:
    void reset(const TimelineData* data);
    // The collective `activity` took part in (its communication kernel or MPI call, or the
    // API call that launched the kernel), on every rank; empty when it is none or when
    // only one rank joined it.
    [[nodiscard]] CollectiveSelection find(std::uint32_t activity);

  private:
    void build();

    const TimelineData* data_ = nullptr;
    bool built_ = false;
    std::vector<profiler::MatchedCollective> matched_;
    std::unordered_map<std::uint32_t, std::size_t> matched_of_activity_;
    std::vector<std::int64_t> activity_of_call_;  // by call index; -1 when not on the timeline
};

// "all_reduce #12 on 8 ranks: arrivals spread over 1.234 ms, last rank 3 (the straggler);
// waits: rank 0 1.2 ms, …" for the status bar; times to the trace's precision.
QString describeCollective(const TimelineData& data, const CollectiveSelection& selection);
// The same as an HTML table for the tooltip: each rank's arrival after the first and wait.
QString collectiveTooltip(const TimelineData& data, const CollectiveSelection& selection);

// Outlines every rank's instance of the selected collective (in a collapsed rank's
// summary row when its lanes are hidden), shades each rank's wait from its arrival to
// the last one's, and marks the last arrival with a line across the lanes; part of
// TimelineRenderer::paint.
void paintCollectiveHighlight(QPainter& painter, const TimelineData& data,
                              const TimelineViewState& state, QSize size);

}  // namespace trainscope::gui
