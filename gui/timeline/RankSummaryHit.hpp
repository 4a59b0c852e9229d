#pragma once

#include <QPoint>
#include <QString>
#include <optional>

#include "gui/timeline/RankLaneGroups.hpp"
#include "gui/timeline/TimelineRenderer.hpp"

namespace trainscope::gui {

// What lies under the cursor in a folded rank's summary row: the item the row paints
// there (an event, or a block of narrow events folded together, as TimelineRenderer
// draws lanes), with its header. item.row is -1; item.first indexes header->summary.
struct RankSummaryHit {
    const RankHeader* header = nullptr;
    DrawItem item;
};

// The summary item under widget point `pos`, found as hitTest finds a lane's (a 2 px
// grace around thin items); nullopt off a folded header's data area.
std::optional<RankSummaryHit> rankSummaryItemAt(const TimelineViewState& state, QPoint pos);

// Its tooltip, as HTML: the rank and, for an event, its name, start and duration; for a
// folded block, how many events, their span and busy time (the union of the events, which
// may overlap: the rank's streams are merged in the row).
QString rankSummaryTooltip(const TimelineData& data, const TimelineViewState& state,
                           const RankSummaryHit& hit);

// The view a click on a folded block zooms to: the block with 5 % either side.
TimeAxisMapping zoomedToFold(const DrawItem& fold, int width_px);

}  // namespace trainscope::gui
