#include "gui/timeline/CollectiveHighlight.hpp"

#include <QPainter>
#include <algorithm>
#include <map>
#include <tuple>

#include "gui/app/Theme.hpp"
#include "gui/timeline/TimeFormat.hpp"
#include "gui/timeline/TimelineRenderer.hpp"

namespace trainscope::gui {

void CollectiveIndex::reset(const TimelineData* data) {
    data_ = data;
    built_ = false;
    matched_.clear();
    matched_of_activity_.clear();
    activity_of_call_.clear();
}

void CollectiveIndex::build() {
    built_ = true;
    const profiler::Trace& trace = data_->trace();
    if (trace.collectives.empty())
        return;
    // A call lies on the timeline as the activity on its lane over its span (its
    // communication kernel, its MPI call).
    using Key = std::tuple<profiler::LaneId, std::int64_t, std::int64_t>;
    std::map<Key, std::size_t> call_at;
    std::vector<bool> call_lane(trace.lanes.size(), false);  // few: skip the rest cheaply
    for (std::size_t c = 0; c < trace.collectives.size(); ++c) {
        const auto& call = trace.collectives[c];
        call_at.emplace(Key{call.lane, call.start_ns, call.end_ns}, c);
        if (call.lane < call_lane.size())
            call_lane[call.lane] = true;
    }
    activity_of_call_.assign(trace.collectives.size(), -1);
    // From the call lanes' events (the records may live in the store only); among
    // activities of the same span the lowest index stands for the call.
    for (const TimelineRow& row : data_->rows()) {
        if (row.lane >= call_lane.size() || !call_lane[row.lane])
            continue;
        for (const TimelineEvent& e : row.events) {
            const auto it = call_at.find(Key{row.lane, e.start, e.end});
            if (it == call_at.end())
                continue;
            std::int64_t& of_call = activity_of_call_[it->second];
            if (of_call < 0 || static_cast<std::int64_t>(e.activity) < of_call)
                of_call = static_cast<std::int64_t>(e.activity);
        }
    }
    matched_ = profiler::match_collectives(trace);
    for (std::size_t m = 0; m < matched_.size(); ++m) {
        for (const std::size_t c : matched_[m].calls) {
            if (activity_of_call_[c] >= 0)
                matched_of_activity_.emplace(static_cast<std::uint32_t>(activity_of_call_[c]), m);
        }
    }
}

CollectiveSelection CollectiveIndex::find(std::uint32_t activity) {
    if (data_ == nullptr)
        return {};
    if (!built_)
        build();
    auto it = matched_of_activity_.find(activity);
    if (it == matched_of_activity_.end()) {
        // The API call that launched a communication kernel stands for it.
        const auto kernel = data_->gpuWorkLaunchedBy(activity);
        if (!kernel || data_->category(activity) != Category::RuntimeApi)
            return {};
        it = matched_of_activity_.find(*kernel);
        if (it == matched_of_activity_.end())
            return {};
    }
    const profiler::MatchedCollective& m = matched_[it->second];
    if (m.calls.size() < 2)
        return {};  // nobody to wait for: the straggler table leaves it out too
    CollectiveSelection s;
    s.matched = m;
    for (const std::size_t c : m.calls) {
        const auto& call = data_->trace().collectives[c];
        if (activity_of_call_[c] < 0)
            continue;
        s.instances.push_back(CollectiveInstance{static_cast<std::uint32_t>(activity_of_call_[c]),
                                                 call.rank, call.start_ns,
                                                 m.wait_ns(call.start_ns)});
    }
    std::sort(
        s.instances.begin(), s.instances.end(),
        [](const CollectiveInstance& a, const CollectiveInstance& b) { return a.rank < b.rank; });
    return s;
}

namespace {

QString collectiveTitle(const TimelineData& data, const CollectiveSelection& s) {
    const auto kind = profiler::to_string(s.matched.kind);
    QString title = QString::fromLatin1(kind.data(), static_cast<qsizetype>(kind.size()));
    title += s.matched.by_sequence ? QStringLiteral(" seq %1").arg(s.matched.sequence)
                                   : QStringLiteral(" #%1 (by order)").arg(s.matched.sequence);
    const std::string& group = data.trace().strings.at(s.matched.group);
    if (!group.empty())
        title += QStringLiteral(", group %1").arg(QString::fromStdString(group));
    return title + QStringLiteral(" on %1 ranks").arg(s.matched.calls.size());
}

}  // namespace

QString describeCollective(const TimelineData& data, const CollectiveSelection& s) {
    if (s.empty())
        return {};
    const std::int64_t res = data.resolutionNs();
    QStringList waits;
    for (const CollectiveInstance& i : s.instances)
        waits << QStringLiteral("rank %1 %2").arg(i.rank).arg(formatTimeExact(i.wait_ns, res));
    return QStringLiteral("%1: arrivals spread over %2, last rank %3 (the straggler); waits: %4")
        .arg(collectiveTitle(data, s), formatTimeExact(s.spreadNs(), res))
        .arg(s.matched.last_rank)
        .arg(waits.join(QStringLiteral(", ")));
}

QString collectiveTooltip(const TimelineData& data, const CollectiveSelection& s) {
    if (s.empty())
        return {};
    const std::int64_t res = data.resolutionNs();
    QString html =
        QStringLiteral(
            "<hr><b>%1</b><br>arrivals spread over %2; last: rank %3 (the straggler)"
            "<table><tr><th align=left>rank</th><th align=right>arrival</th>"
            "<th align=right>wait</th></tr>")
            .arg(collectiveTitle(data, s).toHtmlEscaped(), formatTimeExact(s.spreadNs(), res))
            .arg(s.matched.last_rank);
    for (const CollectiveInstance& i : s.instances) {
        html +=
            QStringLiteral("<tr><td>%1</td><td align=right>+%2</td><td align=right>%3</td></tr>")
                .arg(i.rank)
                .arg(formatTimeExact(i.arrival_ns - s.matched.first_arrival_ns, res),
                     formatTimeExact(i.wait_ns, res));
    }
    return html + QStringLiteral("</table>");
}

void paintCollectiveHighlight(QPainter& p, const TimelineData& data, const TimelineViewState& s,
                              QSize size) {
    if (s.collective.empty())
        return;
    using R = TimelineRenderer;
    const Theme& theme = Theme::get(s.dark);
    const int dw = R::dataWidth(size.width());
    const int area_top = R::kRulerHeight + s.pinned_height;
    const int area_bottom = size.height() - R::kLegendHeight;
    constexpr int kRowH = TimelineData::kRowHeight;
    p.save();
    p.setClipRect(QRect(R::kLabelWidth, area_top, dw, area_bottom - area_top));
    const auto x_of = [&](std::int64_t t) {
        return R::kLabelWidth +
               std::clamp(s.mapping.mapTimeToX(static_cast<double>(t)), -10.0, dw + 10.0);
    };
    for (const CollectiveInstance& i : s.collective.instances) {
        // Its own row, or its rank's header row when the rank is folded.
        const int row = data.rowOf(i.activity);
        int top = -1;
        if (row >= 0 && R::contentTop(data, s, static_cast<std::size_t>(row)) >= 0) {
            top = R::rowScreenTop(data, s, static_cast<std::size_t>(row));
        } else {
            for (const RankHeader& h : s.rank_headers) {
                if (h.rank == i.rank && h.collapsed)
                    top = R::kRulerHeight + h.top - s.scroll_y;
            }
        }
        if (top < 0)
            continue;
        const auto& a = data.activity(i.activity);
        if (i.wait_ns > 0) {
            const double xa = x_of(i.arrival_ns);
            const double xb = x_of(s.collective.matched.last_arrival_ns);
            p.fillRect(QRectF(xa, top + 1, std::max(xb - xa, 1.0), kRowH - 2), theme.selection);
        }
        const double xa = x_of(a.start_ns);
        const double xb = x_of(a.end_ns);
        p.setPen(QPen(theme.highlight, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(xa - 1, top, std::max(xb - xa, 2.0) + 2, kRowH));
    }
    // The straggler's arrival: where every other rank's wait ends.
    const double xl = x_of(s.collective.matched.last_arrival_ns);
    p.setPen(QPen(theme.highlight, 1, Qt::DashLine));
    p.drawLine(QPointF(xl, area_top), QPointF(xl, area_bottom));
    p.restore();
}

}  // namespace trainscope::gui
