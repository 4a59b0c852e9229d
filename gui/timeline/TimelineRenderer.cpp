#include "gui/timeline/TimelineRenderer.hpp"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>
#include <QPoint>
#include <algorithm>
#include <cmath>
#include <tuple>

#include "gui/timeline/TimeFormat.hpp"

namespace trainscope::gui {

QColor TimelineRenderer::eventColor(const TimelineData& data, const TimelineEvent& e) {
    if (e.category() == Category::Nvtx)
        return nvtx_color(data.name(e.name));
    if (e.category() == Category::HostOp)
        return host_op_color(data.name(e.name));  // host ops and Python frames
    return category_color(e.category());
}

QColor TimelineRenderer::itemColor(const TimelineData& data, const DrawItem& item) {
    return eventColor(data, TimelineEvent::make(item.begin, item.end, 0, item.name, item.category));
}

void TimelineRenderer::appendRow(const TimelineRow& row, int row_index,
                                 const TimeAxisMapping& mapping, std::vector<DrawItem>& out) {
    // A bucket no wider than a pixel: what one pixel column can show is a bucket's summary.
    if (const LodLevel* level = row.lodFor(mapping.nsPerPixel())) {
        appendBuckets(row, *level, row_index, mapping, out);
        return;
    }
    // Events still loading: the finest summary there is, never events it does not have.
    if (!row.events_loaded) {
        if (!row.lod.empty())
            appendBuckets(row, row.lod.front(), row_index, mapping, out);
        return;
    }
    const auto [first, last] = row.window(mapping.startNs(), mapping.endNs());
    appendEvents(row, row_index, mapping, first, last, out);
}

void TimelineRenderer::appendBuckets(const TimelineRow& row, const LodLevel& level, int row_index,
                                     const TimeAxisMapping& mapping, std::vector<DrawItem>& out) {
    const double t0 = mapping.startNs();
    const double t1 = mapping.endNs();
    const double min_ns = kMinPx * mapping.nsPerPixel();
    const double fold_max_ns = kFoldMaxPx * mapping.nsPerPixel();
    const auto& buckets = level.buckets;
    // The first bucket whose events can reach into the window, and the first past it.
    const auto bi = static_cast<std::size_t>(
        std::upper_bound(level.max_end.begin(), level.max_end.end(), t0,
                         [](double t, std::int64_t e) { return t < static_cast<double>(e); }) -
        level.max_end.begin());
    const auto be = static_cast<std::size_t>(
        std::lower_bound(
            buckets.begin() + static_cast<std::ptrdiff_t>(bi), buckets.end(), t1,
            [](const LodBucket& b, double t) { return static_cast<double>(b.first_start) < t; }) -
        buckets.begin());
    // The fold being gathered, from consecutive buckets of narrow events only.
    bool open = false;
    std::int64_t begin = 0;
    std::int64_t end = 0;
    std::uint32_t count = 0;
    const LodBucket* dominant = nullptr;
    const bool pending = !row.events_loaded;
    auto flush = [&] {
        if (!open)
            return;
        open = false;
        const double x0 = mapping.mapTimeToX(static_cast<double>(begin));
        const double x1 = mapping.mapTimeToX(static_cast<double>(end));
        if (pending) {
            out.push_back(DrawItem{row_index, static_cast<float>(x0),
                                   static_cast<float>(std::max(x1 - x0, 1.0)), DrawKind::Pending, 0,
                                   count, begin, end, dominant->category, dominant->name});
            return;
        }
        const std::size_t first = row.firstStartingAt(begin);
        if (count == 1) {  // one event alone: itself, as the events' path paints it
            const TimelineEvent& e = row.events[first];
            out.push_back(DrawItem{row_index, static_cast<float>(x0),
                                   static_cast<float>(std::max(x1 - x0, 1.0)), DrawKind::Event,
                                   static_cast<std::uint32_t>(first), 1, e.start, e.end,
                                   e.category(), e.name});
            return;
        }
        out.push_back(DrawItem{row_index, static_cast<float>(x0),
                               static_cast<float>(std::max(x1 - x0, 1.0)), DrawKind::Fold,
                               static_cast<std::uint32_t>(first), count, begin, end,
                               dominant->category, dominant->name});
    };
    for (std::size_t b = bi; b < be; ++b) {
        const LodBucket& bucket = buckets[b];
        if (static_cast<double>(bucket.last_end) <= t0)
            continue;
        if (static_cast<double>(bucket.longest_ns) >= min_ns) {
            // A wide event starts here: it must be drawn as itself, never folded.
            flush();
            if (pending) {  // ... once it is loaded; until then the bucket, on its own
                open = true;
                begin = bucket.first_start;
                end = bucket.last_end;
                count = bucket.count;
                dominant = &bucket;
                flush();
                continue;
            }
            const std::int64_t b0 = level.bucketBegin(bucket);
            appendEvents(row, row_index, mapping, row.firstStartingAt(b0),
                         row.firstStartingAt(b0 + level.width_ns), out);
            continue;
        }
        if (open && (static_cast<double>(bucket.first_start - end) > min_ns ||
                     static_cast<double>(end - begin) >= fold_max_ns))
            flush();
        if (!open) {
            open = true;
            begin = bucket.first_start;
            end = bucket.last_end;
            count = 0;
            dominant = &bucket;
        }
        count += bucket.count;
        end = std::max(end, bucket.last_end);
        // The colour of the busiest bucket's longest event: the longest event of the whole
        // fold would paint every step of a training run in its one long copy's colour.
        if (std::tie(bucket.busy_ns, bucket.count) > std::tie(dominant->busy_ns, dominant->count))
            dominant = &bucket;
    }
    flush();
}

void TimelineRenderer::appendEvents(const TimelineRow& row, int row_index,
                                    const TimeAxisMapping& mapping, std::size_t first,
                                    std::size_t last, std::vector<DrawItem>& out) {
    const double t0 = mapping.startNs();
    const auto& ev = row.events;
    const double min_ns = kMinPx * mapping.nsPerPixel();
    const auto min_ns_int = static_cast<std::int64_t>(std::ceil(min_ns));
    const double fold_max_ns = kFoldMaxPx * mapping.nsPerPixel();
    const auto begin_it = ev.begin();
    std::size_t i = first;
    while (i < last) {
        const TimelineEvent& e = ev[i];
        if (static_cast<double>(e.end) <= t0) {  // only in rows with overlaps
            ++i;
            continue;
        }
        const double x0 = mapping.mapTimeToX(static_cast<double>(e.start));
        const double x1 = mapping.mapTimeToX(static_cast<double>(e.end));
        if (x1 - x0 >= kMinPx) {
            out.push_back(DrawItem{row_index, static_cast<float>(x0), static_cast<float>(x1 - x0),
                                   DrawKind::Event, static_cast<std::uint32_t>(i), 1, e.start,
                                   e.end, e.category(), e.name});
            ++i;
            continue;
        }
        // A narrow event: swallow everything that starts within kMinPx of the group's
        // end, jumping with lower_bound, until a gap, a wide event or the size cap.
        std::size_t j = i;
        std::int64_t rend = e.end;
        for (;;) {
            const std::int64_t next_t = rend + min_ns_int;
            const auto k = static_cast<std::size_t>(
                std::lower_bound(
                    begin_it + static_cast<std::ptrdiff_t>(j + 1),
                    begin_it + static_cast<std::ptrdiff_t>(last), next_t,
                    [](const TimelineEvent& a, std::int64_t t) { return a.start < t; }) -
                begin_it);
            if (k > j + 1) {
                // Everything swallowed starts within kMinPx of the group's end, so in a row
                // without overlaps only the last one can be wide: it is not folded.
                const bool last_wide =
                    static_cast<double>(ev[k - 1].end - ev[k - 1].start) >= min_ns;
                const std::size_t upto = last_wide ? k - 2 : k - 1;
                rend = std::max(rend, ev[upto].end);
                j = upto;
                if (last_wide)
                    break;
            }
            if (static_cast<double>(rend - e.start) >= fold_max_ns || k >= last)
                break;
            const TimelineEvent& n = ev[k];
            if (static_cast<double>(n.start - rend) > min_ns ||
                static_cast<double>(n.end - n.start) >= min_ns)
                break;
            j = k;
            rend = std::max(rend, n.end);
        }
        const double fx1 = mapping.mapTimeToX(static_cast<double>(rend));
        const auto count = static_cast<std::uint32_t>(j - i + 1);
        out.push_back(
            DrawItem{row_index, static_cast<float>(x0), static_cast<float>(std::max(fx1 - x0, 1.0)),
                     count > 1 ? DrawKind::Fold : DrawKind::Event, static_cast<std::uint32_t>(i),
                     count, e.start, rend, e.category(), e.name});
        i = j + 1;
    }
}

int TimelineRenderer::rowAt(const TimelineData& data, const TimelineViewState& state, int y) {
    if (y < kRulerHeight)
        return -1;
    // The pinned device rows own the top of the viewport; the host rows the rest.
    const bool in_pinned = y < kRulerHeight + state.pinned_height;
    const auto& rows = data.rows();
    const auto pinned = static_cast<std::size_t>(state.pinned_rows);
    const std::size_t first = in_pinned ? 0 : pinned;
    const std::size_t last = in_pinned ? pinned : rows.size();
    for (std::size_t r = first; r < last; ++r) {
        if (contentTop(data, state, r) < 0)
            continue;
        const int top = rowScreenTop(data, state, r);
        if (y < top)
            return -1;
        if (y < top + TimelineData::kRowHeight)
            return static_cast<int>(r);
    }
    return -1;
}

void TimelineRenderer::layoutRows(const TimelineData& data, const std::vector<bool>& collapsed,
                                  TimelineViewState& state) {
    const auto& rows = data.rows();
    state.row_tops.assign(rows.size(), -1);
    int y = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const TimelineRow& row = rows[r];
        if (row.first_of_lane)
            y += TimelineData::kLaneGap;
        const bool hidden = row.depth > 0 && row.lane < collapsed.size() && collapsed[row.lane];
        if (hidden)
            continue;
        state.row_tops[r] = y;
        y += TimelineData::kRowHeight;
    }
    state.content_height = y + TimelineData::kLaneGap;
}

namespace {

// GPU streams and their annotation lanes; in a CPU-backend trace the compute threads'
// op and NVTX lanes, which are that run's device.
bool is_device_row(const TimelineRow& row) {
    return row.lane_kind == profiler::LaneKind::GpuStream || row.device >= 0 || row.device_lane;
}

}  // namespace

void TimelineRenderer::pinRows(const TimelineData& data, TimelineViewState& state,
                               int widget_height) {
    state.pinned_rows = 0;
    state.pinned_height = 0;
    const auto& rows = data.rows();
    std::size_t n = 0;
    while (n < rows.size() && is_device_row(rows[n]))
        ++n;
    int host_top = -1;
    for (std::size_t r = n; r < rows.size() && host_top < 0; ++r)
        host_top = contentTop(data, state, r);
    if (n == 0 || host_top < 0)
        return;  // nothing would scroll under the device rows
    // The boundary is where the first host lane's separator line sits.
    const int height = host_top - TimelineData::kLaneGap / 2 - 1;
    if (height > viewportHeight(widget_height) / 2)
        return;
    state.pinned_rows = static_cast<int>(n);
    state.pinned_height = height;
}

void TimelineRenderer::buildDrawList(const TimelineData& data, const TimelineViewState& state,
                                     QSize size, std::vector<DrawItem>& out) {
    out.clear();
    const int view_h = viewportHeight(size.height());
    const auto& rows = data.rows();
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (contentTop(data, state, r) < 0)
            continue;  // collapsed
        const bool pinned = static_cast<int>(r) < state.pinned_rows;
        const int top = rowScreenTop(data, state, r) - kRulerHeight;
        if (top + TimelineData::kRowHeight <= (pinned ? 0 : state.pinned_height))
            continue;  // above the viewport, or scrolled under the pinned rows
        if (top >= view_h) {
            if (pinned)
                continue;
            break;  // rows are in y order: the rest is below
        }
        appendRow(rows[r], static_cast<int>(r), state.mapping, out);
    }
}

std::vector<RulerTick> TimelineRenderer::rulerTicks(const TimelineData& data,
                                                    const TimelineViewState& s, int widget_width,
                                                    const QFontMetrics& metrics) {
    const int dw = dataWidth(widget_width);
    const double step = niceStep(110.0 * s.mapping.nsPerPixel());
    const auto origin = static_cast<double>(originNs(data, s));
    const double rel0 = s.mapping.startNs() - origin;
    std::vector<RulerTick> ticks;
    for (double t = std::floor(rel0 / step) * step; t < rel0 + s.mapping.durationNs() + step;
         t += step) {
        const double x = s.mapping.mapTimeToX(t + origin);
        if (x < 0 || x >= dw)
            continue;
        RulerTick tick{x, {}, {}};
        // A label that would run off either edge is left out rather than cut: a cut
        // "145.6 ms" reads "45.6 ms".
        const QString text = formatTick(std::abs(t) < step * 1e-6 ? 0.0 : t, step);
        const int left = kLabelWidth + static_cast<int>(std::lround(x)) + 3;
        const int width = metrics.horizontalAdvance(text);
        if (left + width <= kLabelWidth + dw) {
            tick.label = text;
            tick.label_rect = QRect(left, 2, width, kRulerHeight - 10);
        }
        ticks.push_back(tick);
    }
    return ticks;
}

const DrawItem* TimelineRenderer::hitTest(const std::vector<DrawItem>& list,
                                          const TimelineData& data, const TimelineViewState& state,
                                          QPoint pos) {
    const int row = rowAt(data, state, pos.y());
    if (row < 0 || pos.x() < kLabelWidth)
        return nullptr;
    const double x = pos.x() - kLabelWidth;
    const DrawItem* best = nullptr;
    for (const DrawItem& item : list) {
        if (item.row != row)
            continue;
        // Thin items get a 2 px grace area so they can be hovered at all.
        const double grace = item.w < 4 ? 2.0 : 0.0;
        if (x >= item.x - grace && x <= item.x + item.w + grace)
            best = &item;
        if (item.x > x + 2)
            break;
    }
    return best;
}

}  // namespace trainscope::gui
