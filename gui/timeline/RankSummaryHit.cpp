#include "gui/timeline/RankSummaryHit.hpp"

#include <QObject>
#include <algorithm>
#include <vector>

#include "gui/timeline/TimeFormat.hpp"
#include "profiler/analysis/IntervalSet.hpp"

namespace trainscope::gui {

std::optional<RankSummaryHit> rankSummaryItemAt(const TimelineViewState& state, QPoint pos) {
    const RankHeader* header = RankLaneGroups::headerAt(state, pos.y());
    if (header == nullptr || !header->collapsed || !header->summary ||
        pos.x() < TimelineRenderer::kLabelWidth)
        return std::nullopt;
    std::vector<DrawItem> items;
    TimelineRenderer::appendRow(*header->summary, -1, state.mapping, items);
    const double x = pos.x() - TimelineRenderer::kLabelWidth;
    std::optional<RankSummaryHit> best;
    for (const DrawItem& item : items) {
        const double grace = item.w < 4 ? 2.0 : 0.0;
        if (x >= item.x - grace && x <= item.x + item.w + grace)
            best = RankSummaryHit{header, item};
        if (item.x > x + 2)
            break;
    }
    return best;
}

QString rankSummaryTooltip(const TimelineData& data, const TimelineViewState& state,
                           const RankSummaryHit& hit) {
    const TimelineRow& row = *hit.header->summary;
    const DrawItem& item = hit.item;
    const std::int64_t origin = TimelineRenderer::originNs(data, state);
    const std::int64_t res = data.resolutionNs();
    const QString where = QObject::tr("rank %1, folded").arg(hit.header->rank);
    if (item.kind == DrawKind::Event) {
        const TimelineEvent& e = row.events[item.first];
        return QObject::tr("<b>%1</b><br>%2 · from %3, for %4<br><i>Click to select it.</i>")
            .arg(data.label(e.name).toHtmlEscaped(), where, formatTimeExact(e.start - origin, res),
                 formatTimeExact(e.end - e.start, res));
    }
    // Busy: the union of the block's events (profiler's interval union, as the analyses).
    std::vector<profiler::Interval> spans;
    const std::size_t end = std::min<std::size_t>(row.events.size(), item.first + item.count);
    spans.reserve(end - std::min<std::size_t>(end, item.first));
    for (std::size_t i = item.first; i < end; ++i)
        spans.push_back({row.events[i].start, row.events[i].end});
    const std::int64_t busy =
        profiler::total_length_ns(profiler::merge_intervals(std::move(spans)));
    return QObject::tr(
               "<b>%1 events</b> of %2 (each narrower than %3 px)<br>from %4, spanning "
               "%5, busy %6<br><i>Click to zoom in.</i>")
        .arg(item.count)
        .arg(where)
        .arg(TimelineRenderer::kMinPx)
        .arg(formatTimeExact(item.begin - origin, res), formatTimeExact(item.end - item.begin, res),
             formatTimeExact(busy, res));
}

TimeAxisMapping zoomedToFold(const DrawItem& fold, int width_px) {
    const auto span = static_cast<double>(fold.end - fold.begin);
    return TimeAxisMapping::fit(static_cast<double>(fold.begin) - span * 0.05,
                                static_cast<double>(fold.end) + span * 0.05, width_px);
}

}  // namespace trainscope::gui
