// TimelineView's rank groups and cross-rank collectives: a distributed job's lanes under
// one header per rank, folded and unfolded, and the selected collective shown on every
// rank with the spread of arrivals and each rank's wait.
#include <QCursor>
#include <QScrollBar>
#include <QToolTip>

#include "gui/timeline/RankSummaryHit.hpp"
#include "gui/timeline/TimelineView.hpp"

namespace trainscope::gui {

void TimelineView::resetRankGroups() {
    rank_groups_.reset(data_.get());
    collectives_.reset(data_.get());
    state_.collective = {};
    state_.rank_headers.clear();
}

void TimelineView::layOutLanes() {
    if (rank_groups_.active()) {
        // Headers scroll with their ranks' lanes: pinning rank 0's devices over the
        // other ranks would hide the very comparison the groups are for.
        rank_groups_.layout(*data_, collapsed_, state_);
        return;
    }
    state_.rank_headers.clear();
    if (std::find(collapsed_.begin(), collapsed_.end(), true) != collapsed_.end())
        TimelineRenderer::layoutRows(*data_, collapsed_, state_);
    TimelineRenderer::pinRows(*data_, state_, height());
}

void TimelineView::setRankCollapsed(std::int32_t rank, bool collapsed) {
    if (rank_groups_.setCollapsed(rank, collapsed))
        relayout();
}

void TimelineView::collapseAllRanksButSelected() {
    if (!data_ || !rank_groups_.active())
        return;
    int row = -1;
    if (state_.selected) {
        row = data_->rowOf(*state_.selected);
    } else {
        const QPoint p = mapFromGlobal(QCursor::pos());
        if (const RankHeader* header = RankLaneGroups::headerAt(state_, p.y())) {
            showOnlyRank(header->rank);
            return;
        }
        row = TimelineRenderer::rowAt(*data_, state_, p.y());
    }
    showOnlyRank(row >= 0 ? rank_groups_.rankOfRow(static_cast<std::size_t>(row))
                          : rank_groups_.groups().front().rank);
}

void TimelineView::showOnlyRank(std::int32_t rank) {
    if (!data_ || !rank_groups_.active())
        return;
    if (rank_groups_.collapseAllBut(rank))
        relayout();
    for (const RankHeader& header : state_.rank_headers) {
        if (header.rank == rank)  // its header at the top, as far as the scroll goes
            scroll_->setValue(header.top - TimelineData::kLaneGap);
    }
    emit statusMessage(
        tr("Showing the lanes of rank %1 only (Shift+R shows every rank)").arg(rank));
}

void TimelineView::expandAllRanks() {
    if (rank_groups_.expandAll())
        relayout();
}

bool TimelineView::toggleRankHeaderAt(int y) {
    if (!data_)
        return false;
    const RankHeader* header = RankLaneGroups::headerAt(state_, y);
    if (header == nullptr)
        return false;
    setRankCollapsed(header->rank, !header->collapsed);
    return true;
}

void TimelineView::clickRankHeaderAt(QPoint pos) {
    if (const auto hit = data_ ? rankSummaryItemAt(state_, pos) : std::nullopt) {
        if (hit->item.kind == DrawKind::Fold)
            setMappingInternal(zoomedToFold(hit->item, state_.mapping.width()));
        else
            select(hit->header->summary->events[hit->item.first].activity);
        return;
    }
    toggleRankHeaderAt(pos.y());
}

bool TimelineView::showRankHeaderToolTip(QPoint pos, QPoint global_pos) {
    const RankHeader* header = data_ ? RankLaneGroups::headerAt(state_, pos.y()) : nullptr;
    if (header == nullptr)
        return false;
    if (const auto hit = rankSummaryItemAt(state_, pos)) {
        QToolTip::showText(global_pos, rankSummaryTooltip(*data_, state_, *hit), this);
        return true;
    }
    const QString state =
        header->collapsed
            ? tr("folded: its GPU work in this one row; click the label or an empty spot to "
                 "unfold")
            : tr("click to fold its lanes into one row");
    QToolTip::showText(global_pos,
                       tr("<b>rank %1</b> · %2 lanes<br>%3<br>R: only the selected event's rank; "
                          "Shift+R: every rank")
                           .arg(header->rank)
                           .arg(header->lanes)
                           .arg(state),
                       this);
    return true;
}

void TimelineView::rankKey(Qt::KeyboardModifiers modifiers) {
    if (modifiers & Qt::ShiftModifier)
        expandAllRanks();
    else
        collapseAllRanksButSelected();
}

bool TimelineView::highlightCollective(std::uint32_t activity) {
    state_.collective = collectives_.find(activity);
    if (state_.collective.empty())
        return false;
    update();
    emit statusMessage(describeCollective(*data_, state_.collective));
    return true;
}

}  // namespace trainscope::gui
