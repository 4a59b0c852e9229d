#include "gui/timeline/TimelineRenderer.hpp"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>
#include <QPoint>
#include <algorithm>
#include <cmath>

#include "gui/timeline/TimeFormat.hpp"

namespace trainscope::gui {

TimelineTheme TimelineTheme::make(bool dark) {
    if (dark) {
        return {QColor(0x1e, 0x20, 0x24),    QColor(0x24, 0x27, 0x2c), QColor(0x2b, 0x2e, 0x34),
                QColor(0xe6, 0xe6, 0xe6),    QColor(0x9a, 0xa0, 0xa8), QColor(0x36, 0x3a, 0x41),
                QColor(0x30, 0x33, 0x39),    QColor(0x45, 0x49, 0x52), QColor(0xff, 0xe0, 0x40),
                QColor(0x60, 0xa0, 0xff, 60)};
    }
    return {QColor(0xfb, 0xfb, 0xfc),    QColor(0xf0, 0xf2, 0xf5), QColor(0xe8, 0xea, 0xee),
            QColor(0x20, 0x22, 0x26),    QColor(0x60, 0x66, 0x70), QColor(0xdd, 0xe0, 0xe5),
            QColor(0xe4, 0xe6, 0xea),    QColor(0xc4, 0xc8, 0xd0), QColor(0xd0, 0x30, 0x00),
            QColor(0x30, 0x70, 0xe0, 50)};
}

namespace {

QColor nvtx_color(const QString& name) {
    const auto h = static_cast<int>(qHash(name) % 360U);
    return QColor::fromHsv(h, 110, 210);
}

bool is_light(const QColor& c) {
    return c.red() * 299 + c.green() * 587 + c.blue() * 114 > 140000;
}

}  // namespace

QColor TimelineRenderer::eventColor(const TimelineData& data, const TimelineEvent& e) {
    if (e.category == Category::Nvtx)
        return nvtx_color(data.name(e.name));
    if (e.category == Category::HostOp) {
        // Host ops and Python frames: muted, by name, so that stacks read like a flame graph.
        const auto h = static_cast<int>(qHash(data.name(e.name)) % 60U);
        return QColor::fromHsv(60 + h, 70, 150);
    }
    return category_color(e.category);
}

void TimelineRenderer::appendRow(const TimelineRow& row, int row_index,
                                 const TimeAxisMapping& mapping, std::vector<DrawItem>& out) {
    const double t0 = mapping.startNs();
    const double t1 = mapping.endNs();
    const auto [first, last] = row.window(t0, t1);
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
                                   e.end, e.category});
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
        out.push_back(DrawItem{row_index, static_cast<float>(x0),
                               static_cast<float>(std::max(fx1 - x0, 1.0)),
                               count > 1 ? DrawKind::Fold : DrawKind::Event,
                               static_cast<std::uint32_t>(i), count, e.start, rend, e.category});
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

void TimelineRenderer::paintFold(QPainter& p, const QRect& rect, const QColor& c) {
    // Desaturated and a little darker, hatched and outlined: clearly "many things
    // here", still of its category.
    const QColor base = QColor::fromHsv(c.hsvHue(), c.hsvSaturation() / 2, c.value() * 4 / 5);
    p.fillRect(rect, base);
    p.fillRect(rect, QBrush(base.lighter(160), Qt::BDiagPattern));
    if (rect.width() >= 3) {
        p.setPen(base.darker(170));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect.adjusted(0, 0, -1, -1));
    }
}

namespace {

void paint_ruler(QPainter& p, const TimelineData& data, const TimelineViewState& s, QSize size,
                 const TimelineTheme& theme) {
    const int w = size.width();
    const int dw = TimelineRenderer::dataWidth(w);
    const int x_off = TimelineRenderer::kLabelWidth;
    const int h = TimelineRenderer::kRulerHeight;
    p.fillRect(QRect(0, 0, w, h), theme.ruler);
    p.setPen(theme.separator);
    p.drawLine(0, h - 1, w, h - 1);
    const double step = niceStep(110.0 * s.mapping.nsPerPixel());
    const auto origin = static_cast<double>(TimelineRenderer::originNs(data, s));
    const double rel0 = s.mapping.startNs() - origin;
    const double minor = step / 5.0;
    p.setPen(theme.dim_text);
    for (double m = std::floor(rel0 / step) * step; m < rel0 + s.mapping.durationNs() + minor;
         m += minor) {
        const double x = s.mapping.mapTimeToX(m + origin);
        if (x < 0 || x >= dw)
            continue;
        const int xi = x_off + static_cast<int>(std::lround(x));
        p.drawLine(xi, h - 5, xi, h - 1);
    }
    for (const RulerTick& tick : TimelineRenderer::rulerTicks(data, s, w, p.fontMetrics())) {
        const int xi = x_off + static_cast<int>(std::lround(tick.x));
        p.setPen(theme.text);
        p.drawLine(xi, h - 12, xi, h - 1);
        if (!tick.label.isEmpty())
            p.drawText(tick.label_rect, Qt::AlignLeft | Qt::AlignVCenter, tick.label);
    }
    // A chosen time origin: a marker where the ruler reads 0.
    if (s.origin_ns) {
        const double x = s.mapping.mapTimeToX(origin);
        if (x >= 0 && x < dw) {
            const auto xo = static_cast<double>(x_off) + x;
            QPolygonF mark;
            mark << QPointF(xo - 5, 0) << QPointF(xo + 5, 0) << QPointF(xo, 8);
            p.setPen(Qt::NoPen);
            p.setBrush(theme.highlight);
            p.drawPolygon(mark);
            p.setBrush(Qt::NoBrush);
        }
    }
    // The window's extent (and a chosen origin) in the label column's corner.
    p.fillRect(QRect(0, 0, x_off, h - 1), theme.label_background);
    p.setPen(s.origin_ns ? theme.highlight : theme.dim_text);
    const QString extent =
        QStringLiteral("view %1 · %2/px")
            .arg(formatDuration(s.mapping.durationNs()), formatDuration(s.mapping.nsPerPixel()));
    p.drawText(QRect(8, 0, x_off - 12, h - 1), Qt::AlignLeft | Qt::AlignVCenter,
               s.origin_ns ? QStringLiteral("t = 0 at ▾ · %1").arg(extent) : extent);
}

void paint_grid(QPainter& p, const TimelineData& data, const TimelineViewState& s, QSize size,
                const TimelineTheme& theme, const QRect& clip) {
    const double step = niceStep(110.0 * s.mapping.nsPerPixel());
    const auto origin = static_cast<double>(TimelineRenderer::originNs(data, s));
    const double rel0 = s.mapping.startNs() - origin;
    p.setPen(theme.grid);
    const int dw = TimelineRenderer::dataWidth(size.width());
    for (double t = std::floor(rel0 / step) * step; t < rel0 + s.mapping.durationNs(); t += step) {
        const double x = s.mapping.mapTimeToX(t + origin);
        if (x < 0 || x >= dw)
            continue;
        const int xi = TimelineRenderer::kLabelWidth + static_cast<int>(std::lround(x));
        p.drawLine(xi, clip.top(), xi, clip.bottom());
    }
}

void paint_legend(QPainter& p, QSize size, const TimelineTheme& theme) {
    const int h = TimelineRenderer::kLegendHeight;
    const int y = size.height() - h;
    p.fillRect(QRect(0, y, size.width(), h), theme.ruler);
    p.setPen(theme.separator);
    p.drawLine(0, y, size.width(), y);
    static constexpr Category kShown[] = {
        Category::Conv,          Category::Gemm,      Category::Elementwise, Category::Reduction,
        Category::Normalization, Category::Optimizer, Category::OtherKernel, Category::Memcpy,
        Category::Memset,        Category::Sync,      Category::RuntimeApi};
    const QFontMetrics fm = p.fontMetrics();
    int x = 8;
    for (Category c : kShown) {
        const QString label = QString::fromLatin1(category_name(c).data(),
                                                  static_cast<qsizetype>(category_name(c).size()));
        p.fillRect(QRect(x, y + 7, 12, 10), category_color(c));
        p.setPen(theme.text);
        p.drawText(QPoint(x + 16, y + 16), label);
        x += 16 + fm.horizontalAdvance(label) + 14;
    }
    TimelineRenderer::paintFold(p, QRect(x, y + 6, 18, 12), category_color(Category::Conv));
    p.setPen(theme.text);
    p.drawText(QPoint(x + 22, y + 16), QStringLiteral("folded (< 3 px each)"));
}

}  // namespace

void TimelineRenderer::paint(QPainter& p, const TimelineData& data, const TimelineViewState& s,
                             QSize size, std::vector<DrawItem>& list) {
    const TimelineTheme theme = TimelineTheme::make(s.dark);
    const int w = size.width();
    const int x_off = kLabelWidth;
    const int dw = dataWidth(w);
    const int clip_bottom = size.height() - kLegendHeight;
    const int scroll_top = kRulerHeight + s.pinned_height;  // host rows show below this
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(QRect(0, 0, w, size.height()), theme.background);

    buildDrawList(data, s, size, list);
    const auto& rows = data.rows();
    const auto pinned_rows = static_cast<std::size_t>(s.pinned_rows);
    const auto first_host_item = static_cast<std::size_t>(
        std::find_if(list.begin(), list.end(),
                     [&](const DrawItem& item) { return item.row >= s.pinned_rows; }) -
        list.begin());
    // The host rows scroll in [scroll_top, clip_bottom); the pinned device rows own
    // [kRulerHeight, scroll_top). Each part is painted inside its own clip.
    const QRect host_area(0, scroll_top, w, clip_bottom - scroll_top);
    const QRect pinned_area(0, kRulerHeight, w, s.pinned_height);

    QFont small = p.font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.85));
    const QFontMetrics fm(small);
    const int row_h = TimelineData::kRowHeight;
    const bool searching = !s.name_matches.empty();
    QFont bold = small;
    bold.setBold(true);

    auto paint_rows = [&](std::size_t row_begin, std::size_t row_end, std::size_t item_begin,
                          std::size_t item_end, const QRect& area) {
        if (area.height() <= 0)
            return;
        // Lane backgrounds, alternating per lane, only for rows in view.
        p.setClipRect(area);
        int lane_parity = 0;
        for (std::size_t r = 0; r < row_end; ++r) {
            const TimelineRow& row = rows[r];
            if (row.first_of_lane)
                ++lane_parity;
            const int top = rowScreenTop(data, s, r);
            if (r < row_begin || contentTop(data, s, r) < 0 || top + row_h <= area.top() ||
                top >= area.bottom() + 1)
                continue;
            if (lane_parity % 2 == 0)
                p.fillRect(QRect(x_off, top - (row.first_of_lane ? TimelineData::kLaneGap / 2 : 0),
                                 dw, row_h + (row.first_of_lane ? TimelineData::kLaneGap : 0)),
                           theme.lane_alt);
            if (row.first_of_lane) {
                p.setPen(theme.separator);
                const int ly = top - TimelineData::kLaneGap / 2 - 1;
                p.drawLine(0, ly, w, ly);
            }
        }
        paint_grid(p, data, s, size, theme, area);

        // The draw list: boxes with their labels.
        p.setFont(small);
        for (std::size_t i = item_begin; i < item_end; ++i) {
            const DrawItem& item = list[i];
            const TimelineRow& row = rows[static_cast<std::size_t>(item.row)];
            const TimelineEvent& e = row.events[item.first];
            const int top = rowScreenTop(data, s, static_cast<std::size_t>(item.row)) + 1;
            const int xa = x_off + static_cast<int>(std::floor(std::max(item.x, -2.0f)));
            const int xb = x_off + static_cast<int>(std::ceil(
                                       std::min(item.x + item.w, static_cast<float>(dw) + 2.0f)));
            const QRect rect(xa, top, std::max(xb - xa, 1), row_h - 2);
            QColor c = eventColor(data, e);
            if (item.kind == DrawKind::Fold) {
                paintFold(p, rect, c);
                if (rect.width() >= 40) {
                    p.setPen(theme.text);
                    p.drawText(rect, Qt::AlignCenter, QStringLiteral("×%1").arg(item.count));
                }
                continue;
            }
            if (searching && (e.name >= s.name_matches.size() || !s.name_matches[e.name]))
                c = c.darker(250);
            p.fillRect(rect, c);
            if (rect.width() >= 4)
                p.fillRect(QRect(rect.x(), rect.y(), 1, rect.height()), c.darker(140));
            if (rect.width() >= 36) {
                const QRect text_rect =
                    rect.intersected(QRect(x_off, 0, dw, size.height())).adjusted(3, 0, -2, 0);
                if (text_rect.width() >= 24) {
                    p.setPen(is_light(c) ? QColor(0x10, 0x10, 0x10) : QColor(0xf8, 0xf8, 0xf8));
                    p.drawText(
                        text_rect, Qt::AlignLeft | Qt::AlignVCenter,
                        fm.elidedText(data.label(e.name), Qt::ElideRight, text_rect.width()));
                }
            }
            if (searching && e.name < s.name_matches.size() && s.name_matches[e.name]) {
                p.setPen(theme.highlight);
                p.drawRect(rect.adjusted(0, 0, -1, -1));
            }
        }

        // Label column (fixed while the data area pans).
        p.fillRect(QRect(0, area.top(), x_off, area.height()), theme.label_background);
        for (std::size_t r = row_begin; r < row_end; ++r) {
            const TimelineRow& row = rows[r];
            const int top = rowScreenTop(data, s, r);
            if (contentTop(data, s, r) < 0 || top + row_h <= area.top() || top >= area.bottom() + 1)
                continue;
            if (row.first_of_lane) {
                // A lane with nested rows gets an expand/collapse marker (click the label).
                const bool nested = r + 1 < rows.size() && rows[r + 1].lane == row.lane;
                const bool collapsed = nested && contentTop(data, s, r + 1) < 0;
                p.setPen(theme.separator);
                const int ly = top - TimelineData::kLaneGap / 2 - 1;
                p.drawLine(0, ly, x_off, ly);
                const bool gpu = row.lane_kind == profiler::LaneKind::GpuStream ||
                                 (row.device_lane && row.lane_kind == profiler::LaneKind::HostThread);
                p.setFont(gpu ? bold : small);
                p.fillRect(
                    QRect(4, top + 4, 4, row_h - 8),
                    gpu ? QColor(0x76, 0xb9, 0x00)
                        : (row.lane_kind == profiler::LaneKind::Nvtx ? QColor(0x6a, 0x9b, 0xc4)
                                                                     : QColor(0xb8, 0xa6, 0x58)));
                p.setPen(theme.text);
                const QString marker =
                    nested ? (collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) : QString();
                p.drawText(QRect(12, top, x_off - 16, row_h), Qt::AlignLeft | Qt::AlignVCenter,
                           fm.elidedText(marker + row.label, Qt::ElideMiddle, x_off - 16));
            } else {
                p.setFont(small);
                p.setPen(theme.dim_text);
                p.drawText(QRect(12, top, x_off - 16, row_h), Qt::AlignRight | Qt::AlignVCenter,
                           QStringLiteral("depth %1").arg(row.depth));
            }
        }
        p.setClipping(false);
    };
    paint_rows(pinned_rows, rows.size(), first_host_item, list.size(), host_area);
    paint_rows(0, pinned_rows, 0, first_host_item, pinned_area);
    if (s.pinned_rows > 0 && s.scroll_y > 0) {
        // Host rows are scrolled under the pinned device rows: a firm edge says so.
        p.fillRect(QRect(0, scroll_top - 1, w, 2), theme.separator);
    }
    p.setFont(small);

    // Selection outline and the API -> kernel flow arrow.
    auto activity_rect = [&](std::uint32_t idx) {
        const auto& a = data.activity(idx);
        const auto r = static_cast<std::size_t>(data.rowOf(idx));
        const double xa = s.mapping.mapTimeToX(static_cast<double>(a.start_ns));
        const double xb = s.mapping.mapTimeToX(static_cast<double>(a.end_ns));
        const double xa_c = std::clamp(xa, -10.0, dw + 10.0);
        const double xb_c = std::clamp(xb, -10.0, dw + 10.0);
        return QRectF(x_off + xa_c, rowScreenTop(data, s, r), std::max(xb_c - xa_c, 2.0), row_h);
    };
    p.setClipRect(QRect(x_off, kRulerHeight, dw, clip_bottom - kRulerHeight));
    auto shown = [&](std::uint32_t idx) {
        const int r = data.rowOf(idx);
        return r >= 0 && contentTop(data, s, static_cast<std::size_t>(r)) >= 0;
    };
    if (s.selected && shown(*s.selected)) {
        p.setPen(QPen(theme.highlight, 2));
        p.drawRect(activity_rect(*s.selected).adjusted(-1, 0, 1, 0));
    }
    if (s.flow_from && s.flow_to && shown(*s.flow_from) && shown(*s.flow_to)) {
        const QRectF from = activity_rect(*s.flow_from);
        const QRectF to = activity_rect(*s.flow_to);
        const QPointF a(from.center().x(), from.top() < to.top() ? from.bottom() : from.top());
        const QPointF b(to.left() + 1, from.top() < to.top() ? to.top() : to.bottom());
        p.setRenderHint(QPainter::Antialiasing, true);
        QPainterPath path(a);
        const double mid = (a.y() + b.y()) / 2;
        path.cubicTo(QPointF(a.x(), mid), QPointF(b.x(), mid), b);
        p.setPen(QPen(theme.highlight, 1.6));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        const double dir = b.y() >= a.y() ? -1.0 : 1.0;
        QPolygonF head;
        head << b << QPointF(b.x() - 4, b.y() + dir * 7) << QPointF(b.x() + 4, b.y() + dir * 7);
        p.setBrush(theme.highlight);
        p.drawPolygon(head);
        p.setBrush(Qt::NoBrush);
        p.setRenderHint(QPainter::Antialiasing, false);
    }
    p.setClipping(false);
    p.setPen(theme.separator);
    p.drawLine(x_off - 1, kRulerHeight, x_off - 1, clip_bottom);

    // Range selection on top of everything in the data area.
    if (s.range) {
        const double xa = std::clamp(s.mapping.mapTimeToX(s.range->first), -1.0, dw + 1.0);
        const double xb = std::clamp(s.mapping.mapTimeToX(s.range->second), -1.0, dw + 1.0);
        const QRectF band(x_off + std::min(xa, xb), kRulerHeight, std::abs(xb - xa),
                          clip_bottom - kRulerHeight);
        p.fillRect(band, theme.selection);
        p.setPen(QPen(theme.highlight, 1));
        p.drawLine(band.topLeft(), band.bottomLeft());
        p.drawLine(band.topRight(), band.bottomRight());
    }
    paint_ruler(p, data, s, size, theme);
    if (s.range) {
        const double xa = s.mapping.mapTimeToX(s.range->first);
        const double xb = s.mapping.mapTimeToX(s.range->second);
        const QString text =
            QStringLiteral("Δ %1").arg(formatDuration(std::abs(s.range->second - s.range->first)));
        const int tw = fm.horizontalAdvance(text) + 12;
        const double cx = std::clamp((xa + xb) / 2, tw / 2.0, dw - tw / 2.0);
        const QRect box(x_off + static_cast<int>(cx) - tw / 2, kRulerHeight + 2, tw, 18);
        p.fillRect(box, theme.highlight);
        p.setPen(QColor(0x10, 0x10, 0x10));
        p.drawText(box, Qt::AlignCenter, text);
    }
    paint_legend(p, size, theme);
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
