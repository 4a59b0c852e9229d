#include "gui/timeline/RankLaneGroups.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <limits>

#include "gui/app/Theme.hpp"
#include "gui/timeline/TimelineRenderer.hpp"

namespace trainscope::gui {

void RankLaneGroups::reset(const TimelineData* data) {
    data_ = data;
    groups_.clear();
    collapsed_.clear();
    summaries_.clear();
    if (data == nullptr)
        return;
    const auto& rows = data->rows();
    const auto& lanes = data->trace().lanes;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::int32_t rank = lanes[rows[r].lane].rank;
        if (groups_.empty() || groups_.back().rank != rank)
            groups_.push_back(Group{rank, r, r, 0});
        Group& g = groups_.back();
        g.end_row = r + 1;
        if (rows[r].first_of_lane)
            ++g.lanes;
    }
    summaries_.resize(groups_.size());
}

bool RankLaneGroups::collapsed(std::int32_t rank) const {
    const auto it = collapsed_.find(rank);
    return it != collapsed_.end() && it->second;
}

bool RankLaneGroups::setCollapsed(std::int32_t rank, bool collapsed) {
    const bool known =
        std::any_of(groups_.begin(), groups_.end(), [&](const Group& g) { return g.rank == rank; });
    if (!known || this->collapsed(rank) == collapsed)
        return false;
    collapsed_[rank] = collapsed;
    return true;
}

bool RankLaneGroups::collapseAllBut(std::int32_t rank) {
    bool changed = false;
    for (const Group& g : groups_)
        changed = setCollapsed(g.rank, g.rank != rank) || changed;
    return changed;
}

bool RankLaneGroups::expandAll() {
    bool changed = false;
    for (const Group& g : groups_)
        changed = setCollapsed(g.rank, false) || changed;
    return changed;
}

std::int32_t RankLaneGroups::rankOfRow(std::size_t row) const {
    for (const Group& g : groups_) {
        if (row >= g.first_row && row < g.end_row)
            return g.rank;
    }
    return -1;
}

std::shared_ptr<const TimelineRow> RankLaneGroups::summary(std::size_t group) {
    if (summaries_[group])
        return summaries_[group];
    // The rank's device work: its GPU streams; for a rank without any, its compute
    // threads' outer rows; failing that every lane's outer row.
    const auto& rows = data_->rows();
    const Group& g = groups_[group];
    const auto pick = [&](auto&& wanted) {
        std::vector<std::size_t> picked;
        for (std::size_t r = g.first_row; r < g.end_row; ++r) {
            if (wanted(rows[r]))
                picked.push_back(r);
        }
        return picked;
    };
    std::vector<std::size_t> sources =
        pick([](const TimelineRow& row) { return row.lane_kind == profiler::LaneKind::GpuStream; });
    if (sources.empty())
        sources = pick([](const TimelineRow& row) {
            return row.device_lane && row.depth == 0 && row.lane_kind != profiler::LaneKind::Nvtx;
        });
    if (sources.empty())
        sources = pick([](const TimelineRow& row) { return row.depth == 0; });
    auto row = std::make_shared<TimelineRow>();
    row->label = QStringLiteral("rank %1").arg(g.rank);
    row->lane = rows[g.first_row].lane;
    for (const std::size_t r : sources)
        row->events.insert(row->events.end(), rows[r].events.begin(), rows[r].events.end());
    std::stable_sort(
        row->events.begin(), row->events.end(),
        [](const TimelineEvent& a, const TimelineEvent& b) { return a.start < b.start; });
    row->indexEnds();
    summaries_[group] = row;
    return row;
}

void RankLaneGroups::layout(const TimelineData& data, const std::vector<bool>& collapsed_lanes,
                            TimelineViewState& state) {
    // The lanes' own layout first (one implementation of a lane's folding), then each
    // rank's block moves down by the headers above it, or up by the folded ranks above it.
    TimelineRenderer::layoutRows(data, collapsed_lanes, state);
    constexpr int kGap = TimelineData::kLaneGap;
    constexpr int kHeader = TimelineData::kLaneGap + TimelineData::kRowHeight;
    state.rank_headers.clear();
    int shift = 0;
    for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
        const Group& g = groups_[gi];
        // A rank's block spans from the gap above its first lane to the gap above the
        // next rank's (a lane's first row is never folded away, so both are laid out).
        const int start_y = state.row_tops[g.first_row] - kGap;
        const int end_y = gi + 1 < groups_.size() ? state.row_tops[groups_[gi + 1].first_row] - kGap
                                                  : state.content_height - kGap;
        RankHeader header;
        header.rank = g.rank;
        header.top = start_y + shift + kGap;
        header.lanes = g.lanes;
        header.first_row = g.first_row;
        header.end_row = g.end_row;
        header.collapsed = collapsed(g.rank);
        shift += kHeader;
        if (header.collapsed) {
            std::fill(state.row_tops.begin() + static_cast<std::ptrdiff_t>(g.first_row),
                      state.row_tops.begin() + static_cast<std::ptrdiff_t>(g.end_row), -1);
            shift -= end_y - start_y;
            header.summary = summary(gi);
        } else {
            for (std::size_t r = g.first_row; r < g.end_row; ++r) {
                if (state.row_tops[r] >= 0)
                    state.row_tops[r] += shift;
            }
        }
        state.rank_headers.push_back(std::move(header));
    }
    state.content_height += shift;
}

int RankLaneGroups::headerScreenTop(const TimelineViewState& state, const RankHeader& header) {
    return TimelineRenderer::kRulerHeight + header.top - state.scroll_y;
}

const RankHeader* RankLaneGroups::headerAt(const TimelineViewState& state, int y) {
    if (y < TimelineRenderer::kRulerHeight + state.pinned_height)
        return nullptr;
    for (const RankHeader& header : state.rank_headers) {
        const int top = headerScreenTop(state, header);
        if (y >= top && y < top + TimelineData::kRowHeight)
            return &header;
    }
    return nullptr;
}

void paintRankHeaders(QPainter& p, const TimelineData& data, const TimelineViewState& state,
                      QSize size) {
    if (state.rank_headers.empty())
        return;
    using R = TimelineRenderer;
    const Theme& theme = Theme::get(state.dark);
    const int w = size.width();
    const int dw = R::dataWidth(w);
    const int area_top = R::kRulerHeight + state.pinned_height;
    const int area_bottom = size.height() - R::kLegendHeight;
    constexpr int kRowH = TimelineData::kRowHeight;
    p.save();
    QFont bold = p.font();
    bold.setBold(true);
    const QFontMetrics fm(bold);
    std::vector<DrawItem> items;
    for (const RankHeader& header : state.rank_headers) {
        const int top = RankLaneGroups::headerScreenTop(state, header);
        if (top + kRowH <= area_top || top >= area_bottom)
            continue;
        p.setClipRect(QRect(0, area_top, w, area_bottom - area_top));
        const int ly = top - TimelineData::kLaneGap / 2 - 1;
        p.fillRect(QRect(0, top - TimelineData::kLaneGap / 2, w, kRowH + TimelineData::kLaneGap),
                   theme.ruler);
        p.setPen(theme.separator);
        p.drawLine(0, ly, w, ly);
        p.fillRect(QRect(0, top, 4, kRowH), theme.highlight);
        p.setFont(bold);
        p.setPen(theme.text);
        const QString text = QStringLiteral("%1 rank %2 · %3 lane%4")
                                 .arg(header.collapsed ? QStringLiteral("▸") : QStringLiteral("▾"))
                                 .arg(header.rank)
                                 .arg(header.lanes)
                                 .arg(header.lanes == 1 ? QString() : QStringLiteral("s"));
        p.drawText(QRect(8, top, R::kLabelWidth - 12, kRowH), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(text, Qt::ElideRight, R::kLabelWidth - 12));
        if (!header.collapsed || !header.summary)
            continue;
        // The folded rank's work in one row, as the lanes paint it.
        p.setClipRect(QRect(R::kLabelWidth, std::max(top, area_top), dw,
                            std::min(top + kRowH, area_bottom) - std::max(top, area_top)));
        items.clear();
        R::appendRow(*header.summary, -1, state.mapping, items);
        for (const DrawItem& item : items) {
            const TimelineEvent& e = header.summary->events[item.first];
            const int xa = R::kLabelWidth + static_cast<int>(std::floor(std::max(item.x, -2.0f)));
            const int xb = R::kLabelWidth + static_cast<int>(std::ceil(std::min(
                                                item.x + item.w, static_cast<float>(dw) + 2.0f)));
            const QRect rect(xa, top + 1, std::max(xb - xa, 1), kRowH - 2);
            if (item.kind == DrawKind::Fold)
                R::paintFold(p, rect, R::eventColor(data, e));
            else
                p.fillRect(rect, R::eventColor(data, e));
        }
    }
    p.restore();
}

}  // namespace trainscope::gui
