// Helpers of the GUI tests of a multi-rank job's lanes (tst_rank_lanes,
// tst_rank_summary_hit): the fixtures' timelines, built once per process, and where a
// rank's header and events are on the view.
#pragma once

#include <QImage>
#include <QPoint>
#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "gui/timeline/RankLaneGroups.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "gui/timeline/TimelineView.hpp"
#include "tests/profiler/MultiRankFixtures.hpp"

namespace trainscope::gui::testing {

inline std::shared_ptr<const TimelineData> jobTimeline(const std::string& set) {
    static std::map<std::string, std::shared_ptr<const TimelineData>> cache;
    auto& d = cache[set];
    if (!d)
        d = TimelineData::build(profiler::testing::multirank_job(set).trace);
    return d;
}

inline int rankOfRow(const TimelineData& d, std::size_t r) {
    return d.trace().lanes[d.rows()[r].lane].rank;
}

// The view's own paint, at the size it paints itself.
inline QImage paintOf(const TimelineView& view) {
    return view.renderImage(
        QSize(TimelineRenderer::kLabelWidth + view.state().mapping.width(), view.height()));
}

inline const RankHeader& headerOf(const TimelineView& view, int rank) {
    for (const RankHeader& h : view.state().rank_headers) {
        if (h.rank == rank)
            return h;
    }
    qFatal("no header for rank %d", rank);
}

// The longest event of a row: wide enough to hover and to test its colour.
inline TimelineEvent longestEvent(const TimelineRow& row) {
    return *std::max_element(row.events.begin(), row.events.end(),
                             [](const TimelineEvent& a, const TimelineEvent& b) {
                                 return a.end - a.start < b.end - b.start;
                             });
}

inline QPoint headerLabelPoint(const TimelineView& view, int rank) {
    return {40, RankLaneGroups::headerScreenTop(view.state(), headerOf(view, rank)) +
                    TimelineData::kRowHeight / 2};
}

}  // namespace trainscope::gui::testing
