#pragma once

#include <QSize>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "gui/timeline/TimelineData.hpp"

class QPainter;

namespace trainscope::gui {

struct TimelineViewState;

// A rank's header in the current layout: a row above the rank's lanes that names it and
// folds them away. A folded rank shows its summary in the header row instead: every
// device event of the rank in one row (its GPU streams merged; a CPU-only rank's lanes'
// outer rows), painted as the lanes are, folds and all.
struct RankHeader {
    std::int32_t rank = 0;
    int top = 0;  // content y of the header row (as TimelineRow::top)
    bool collapsed = false;
    int lanes = 0;
    std::size_t first_row = 0;  // the rank's rows: [first_row, end_row) of data.rows()
    std::size_t end_row = 0;
    std::shared_ptr<const TimelineRow> summary;  // set while collapsed
};

// The lanes of a distributed job's trace grouped per rank (TimelineData lays the rows out
// rank by rank), each group under a header that can be collapsed. Active only when the
// rows span two or more ranks: a one-process trace looks as it always did.
class RankLaneGroups {
  public:
    struct Group {
        std::int32_t rank = 0;
        std::size_t first_row = 0;
        std::size_t end_row = 0;
        int lanes = 0;
    };

    void reset(const TimelineData* data);
    [[nodiscard]] bool active() const { return groups_.size() > 1; }
    [[nodiscard]] const std::vector<Group>& groups() const { return groups_; }
    [[nodiscard]] bool collapsed(std::int32_t rank) const;
    // Whether anything changed.
    bool setCollapsed(std::int32_t rank, bool collapsed);
    bool collapseAllBut(std::int32_t rank);
    bool expandAll();
    // The rank whose lanes hold row r (-1 when inactive).
    [[nodiscard]] std::int32_t rankOfRow(std::size_t row) const;

    // The layout of TimelineRenderer::layoutRows (lanes in `collapsed_lanes` reduced to
    // their first row) with a header row before each rank and a collapsed rank's rows
    // hidden; fills state.rank_headers. Call only while active().
    void layout(const TimelineData& data, const std::vector<bool>& collapsed_lanes,
                TimelineViewState& state);

    // The header under widget y, if any.
    static const RankHeader* headerAt(const TimelineViewState& state, int y);
    // Widget y of a header's top (headers scroll with the rows: nothing is pinned).
    static int headerScreenTop(const TimelineViewState& state, const RankHeader& header);

  private:
    std::shared_ptr<const TimelineRow> summary(std::size_t group);

    const TimelineData* data_ = nullptr;
    std::vector<Group> groups_;
    std::map<std::int32_t, bool> collapsed_;
    std::vector<std::shared_ptr<const TimelineRow>> summaries_;  // by group, built lazily
};

// Paints the headers (and the summaries of collapsed ranks) that lie in the host rows'
// area; part of TimelineRenderer::paint.
void paintRankHeaders(QPainter& painter, const TimelineData& data, const TimelineViewState& state,
                      QSize size);

}  // namespace trainscope::gui
