// TimelineRenderer::paint and its passes: lanes, grid, items, labels, selection, flow
// arrow, range, ruler, legend. The geometry they read (draw list, row layout, ruler
// ticks) is in TimelineRenderer.cpp.
#include <QCoreApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "gui/timeline/TimeFormat.hpp"
#include "gui/timeline/TimelineRenderer.hpp"

namespace trainscope::gui {

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

using R = TimelineRenderer;

// What every pass of one paint reads: the painter, the data and the view's state, and
// the geometry and fonts derived from them once.
struct PaintContext {
    PaintContext(QPainter& painter, const TimelineData& d, const TimelineViewState& state,
                 QSize widget_size, const std::vector<DrawItem>& items)
        : p(painter),
          data(d),
          s(state),
          size(widget_size),
          theme(Theme::get(state.dark)),
          list(items),
          w(widget_size.width()),
          dw(R::dataWidth(widget_size.width())),
          clip_bottom(widget_size.height() - R::kLegendHeight),
          scroll_top(R::kRulerHeight + state.pinned_height),
          small(smallFont(painter.font())),
          bold(boldFont(small)),
          fm(small) {}

    static QFont smallFont(QFont f) {
        f.setPointSizeF(std::max(7.0, f.pointSizeF() * 0.85));
        return f;
    }
    static QFont boldFont(QFont f) {
        f.setBold(true);
        return f;
    }
    // Whether row r is laid out and overlaps `area` on screen.
    [[nodiscard]] bool rowVisible(std::size_t r, const QRect& area) const {
        const int top = R::rowScreenTop(data, s, r);
        return R::contentTop(data, s, r) >= 0 && top + TimelineData::kRowHeight > area.top() &&
               top < area.bottom() + 1;
    }

    QPainter& p;
    const TimelineData& data;
    const TimelineViewState& s;
    QSize size;
    const Theme& theme;
    const std::vector<DrawItem>& list;
    int w;            // widget width
    int dw;           // data-area width
    int clip_bottom;  // the legend starts here
    int scroll_top;   // host rows show below this
    QFont small;
    QFont bold;
    QFontMetrics fm;
};

constexpr int kRowH = TimelineData::kRowHeight;
constexpr int kXOff = R::kLabelWidth;

// Lane backgrounds, alternating per lane, and the lines between lanes; sets the clip
// to `area` for the passes that follow.
void paint_lane_backgrounds(PaintContext& c, std::size_t row_begin, std::size_t row_end,
                            const QRect& area) {
    c.p.setClipRect(area);
    const auto& rows = c.data.rows();
    int lane_parity = 0;
    for (std::size_t r = 0; r < row_end; ++r) {
        const TimelineRow& row = rows[r];
        if (row.first_of_lane)
            ++lane_parity;
        if (r < row_begin || !c.rowVisible(r, area))
            continue;
        const int top = R::rowScreenTop(c.data, c.s, r);
        if (lane_parity % 2 == 0)
            c.p.fillRect(QRect(kXOff, top - (row.first_of_lane ? TimelineData::kLaneGap / 2 : 0),
                               c.dw, kRowH + (row.first_of_lane ? TimelineData::kLaneGap : 0)),
                         c.theme.lane_alt);
        if (row.first_of_lane) {
            c.p.setPen(c.theme.separator);
            const int ly = top - TimelineData::kLaneGap / 2 - 1;
            c.p.drawLine(0, ly, c.w, ly);
        }
    }
}

// Vertical lines at the ruler's major ticks, inside `clip`.
void paint_grid(PaintContext& c, const QRect& clip) {
    const double step = niceStep(110.0 * c.s.mapping.nsPerPixel());
    const auto origin = static_cast<double>(R::originNs(c.data, c.s));
    const double rel0 = c.s.mapping.startNs() - origin;
    c.p.setPen(c.theme.grid);
    for (double t = std::floor(rel0 / step) * step; t < rel0 + c.s.mapping.durationNs();
         t += step) {
        const double x = c.s.mapping.mapTimeToX(t + origin);
        if (x < 0 || x >= c.dw)
            continue;
        const int xi = kXOff + static_cast<int>(std::lround(x));
        c.p.drawLine(xi, clip.top(), xi, clip.bottom());
    }
}

// One event of the draw list: its box (dimmed when a search does not match it), its
// left edge, its label when there is room, its search outline.
void paint_event_item(PaintContext& c, const TimelineEvent& e, const QRect& rect) {
    const auto& matches = c.s.name_matches;
    const bool searching = !matches.empty();
    const bool matched = e.name < matches.size() && matches[e.name];
    QColor colour = R::eventColor(c.data, e);
    if (searching && !matched)
        colour = colour.darker(250);
    c.p.fillRect(rect, colour);
    if (rect.width() >= 4)
        c.p.fillRect(QRect(rect.x(), rect.y(), 1, rect.height()), colour.darker(140));
    if (rect.width() >= 36) {
        const QRect text_rect =
            rect.intersected(QRect(kXOff, 0, c.dw, c.size.height())).adjusted(3, 0, -2, 0);
        if (text_rect.width() >= 24) {
            c.p.setPen(Theme::isLight(colour) ? c.theme.ink_on_light : c.theme.ink_on_dark);
            c.p.drawText(text_rect, Qt::AlignLeft | Qt::AlignVCenter,
                         c.fm.elidedText(c.data.label(e.name), Qt::ElideRight, text_rect.width()));
        }
    }
    if (searching && matched) {
        c.p.setPen(c.theme.highlight);
        c.p.drawRect(rect.adjusted(0, 0, -1, -1));
    }
}

// The draw list's items [item_begin, item_end): folds and events.
void paint_items(PaintContext& c, std::size_t item_begin, std::size_t item_end) {
    c.p.setFont(c.small);
    const auto& rows = c.data.rows();
    for (std::size_t i = item_begin; i < item_end; ++i) {
        const DrawItem& item = c.list[i];
        const TimelineRow& row = rows[static_cast<std::size_t>(item.row)];
        const int top = R::rowScreenTop(c.data, c.s, static_cast<std::size_t>(item.row)) + 1;
        const int xa = kXOff + static_cast<int>(std::floor(std::max(item.x, -2.0f)));
        const int xb =
            kXOff +
            static_cast<int>(std::ceil(std::min(item.x + item.w, static_cast<float>(c.dw) + 2.0f)));
        const QRect rect(xa, top, std::max(xb - xa, 1), kRowH - 2);
        if (item.kind != DrawKind::Event) {  // a fold, or a block whose events are loading
            R::paintFold(c.p, rect, R::itemColor(c.data, item));
            if (rect.width() >= 40) {
                c.p.setPen(c.theme.text);
                c.p.drawText(rect, Qt::AlignCenter, QStringLiteral("×%1").arg(item.count));
            }
            continue;
        }
        paint_event_item(c, row.events[item.first], rect);
    }
}

// A lane's first row: separator, kind mark (device, NVTX, host), the collapse marker
// of a lane with nested rows, its name.
void paint_lane_label(PaintContext& c, std::size_t r, int top) {
    const auto& rows = c.data.rows();
    const TimelineRow& row = rows[r];
    const bool nested = r + 1 < rows.size() && rows[r + 1].lane == row.lane;
    const bool collapsed = nested && R::contentTop(c.data, c.s, r + 1) < 0;
    c.p.setPen(c.theme.separator);
    const int ly = top - TimelineData::kLaneGap / 2 - 1;
    c.p.drawLine(0, ly, kXOff, ly);
    const bool gpu = row.lane_kind == profiler::LaneKind::GpuStream ||
                     (row.device_lane && row.lane_kind == profiler::LaneKind::HostThread);
    c.p.setFont(gpu ? c.bold : c.small);
    c.p.fillRect(
        QRect(4, top + 4, 4, kRowH - 8),
        gpu ? c.theme.device
            : (row.lane_kind == profiler::LaneKind::Nvtx ? c.theme.nvtx_lane : c.theme.host_lane));
    c.p.setPen(c.theme.text);
    const QString marker =
        nested ? (collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) : QString();
    c.p.drawText(QRect(12, top, kXOff - 16, kRowH), Qt::AlignLeft | Qt::AlignVCenter,
                 c.fm.elidedText(marker + row.label, Qt::ElideMiddle, kXOff - 16));
}

// The label column, fixed while the data area pans.
void paint_label_column(PaintContext& c, std::size_t row_begin, std::size_t row_end,
                        const QRect& area) {
    c.p.fillRect(QRect(0, area.top(), kXOff, area.height()), c.theme.label_background);
    for (std::size_t r = row_begin; r < row_end; ++r) {
        if (!c.rowVisible(r, area))
            continue;
        const TimelineRow& row = c.data.rows()[r];
        const int top = R::rowScreenTop(c.data, c.s, r);
        if (row.first_of_lane) {
            paint_lane_label(c, r, top);
        } else {
            c.p.setFont(c.small);
            c.p.setPen(c.theme.dim_text);
            c.p.drawText(QRect(12, top, kXOff - 16, kRowH), Qt::AlignRight | Qt::AlignVCenter,
                         QStringLiteral("depth %1").arg(row.depth));
        }
    }
}

// Rows [row_begin, row_end) with their items [item_begin, item_end), inside `area`.
void paint_rows(PaintContext& c, std::size_t row_begin, std::size_t row_end, std::size_t item_begin,
                std::size_t item_end, const QRect& area) {
    if (area.height() <= 0)
        return;
    paint_lane_backgrounds(c, row_begin, row_end, area);
    paint_grid(c, area);
    paint_items(c, item_begin, item_end);
    paint_label_column(c, row_begin, row_end, area);
    c.p.setClipping(false);
}

bool activity_shown(const PaintContext& c, std::uint32_t idx) {
    const int r = c.data.rowOf(idx);
    return r >= 0 && R::contentTop(c.data, c.s, static_cast<std::size_t>(r)) >= 0;
}

// An activity's box on screen, clamped a little beyond the data area.
QRectF activity_rect(const PaintContext& c, std::uint32_t idx) {
    const auto& a = c.data.activity(idx);
    const auto r = static_cast<std::size_t>(c.data.rowOf(idx));
    const double xa = c.s.mapping.mapTimeToX(static_cast<double>(a.start_ns));
    const double xb = c.s.mapping.mapTimeToX(static_cast<double>(a.end_ns));
    const double xa_c = std::clamp(xa, -10.0, c.dw + 10.0);
    const double xb_c = std::clamp(xb, -10.0, c.dw + 10.0);
    return QRectF(kXOff + xa_c, R::rowScreenTop(c.data, c.s, r), std::max(xb_c - xa_c, 2.0), kRowH);
}

// The API call -> kernel flow arrow: a curve from one box to the other, head at the
// kernel.
void paint_flow_arrow(PaintContext& c, std::uint32_t from_idx, std::uint32_t to_idx) {
    QPainter& p = c.p;
    const QRectF from = activity_rect(c, from_idx);
    const QRectF to = activity_rect(c, to_idx);
    const QPointF a(from.center().x(), from.top() < to.top() ? from.bottom() : from.top());
    const QPointF b(to.left() + 1, from.top() < to.top() ? to.top() : to.bottom());
    p.setRenderHint(QPainter::Antialiasing, true);
    QPainterPath path(a);
    const double mid = (a.y() + b.y()) / 2;
    path.cubicTo(QPointF(a.x(), mid), QPointF(b.x(), mid), b);
    p.setPen(QPen(c.theme.highlight, 1.6));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    const double dir = b.y() >= a.y() ? -1.0 : 1.0;
    QPolygonF head;
    head << b << QPointF(b.x() - 4, b.y() + dir * 7) << QPointF(b.x() + 4, b.y() + dir * 7);
    p.setBrush(c.theme.highlight);
    p.drawPolygon(head);
    p.setBrush(Qt::NoBrush);
    p.setRenderHint(QPainter::Antialiasing, false);
}

// The selection's outline and the flow arrow, clipped to the data area; then the line
// between the label column and the data.
void paint_selection_and_flow(PaintContext& c) {
    const TimelineViewState& s = c.s;
    c.p.setClipRect(QRect(kXOff, R::kRulerHeight, c.dw, c.clip_bottom - R::kRulerHeight));
    if (s.selected && activity_shown(c, *s.selected)) {
        c.p.setPen(QPen(c.theme.highlight, 2));
        c.p.drawRect(activity_rect(c, *s.selected).adjusted(-1, 0, 1, 0));
    }
    if (s.flow_from && s.flow_to && activity_shown(c, *s.flow_from) &&
        activity_shown(c, *s.flow_to))
        paint_flow_arrow(c, *s.flow_from, *s.flow_to);
    c.p.setClipping(false);
    c.p.setPen(c.theme.separator);
    c.p.drawLine(kXOff - 1, R::kRulerHeight, kXOff - 1, c.clip_bottom);
}

// The selected range's band, on top of everything in the data area.
void paint_range_band(PaintContext& c) {
    const auto& range = *c.s.range;
    const double xa = std::clamp(c.s.mapping.mapTimeToX(range.first), -1.0, c.dw + 1.0);
    const double xb = std::clamp(c.s.mapping.mapTimeToX(range.second), -1.0, c.dw + 1.0);
    const QRectF band(kXOff + std::min(xa, xb), R::kRulerHeight, std::abs(xb - xa),
                      c.clip_bottom - R::kRulerHeight);
    c.p.fillRect(band, c.theme.selection);
    c.p.setPen(QPen(c.theme.highlight, 1));
    c.p.drawLine(band.topLeft(), band.bottomLeft());
    c.p.drawLine(band.topRight(), band.bottomRight());
}

// The selected range's duration in a box under the ruler, centred on the range.
void paint_range_duration(PaintContext& c) {
    const auto& range = *c.s.range;
    const double xa = c.s.mapping.mapTimeToX(range.first);
    const double xb = c.s.mapping.mapTimeToX(range.second);
    const QString text =
        QStringLiteral("Δ %1").arg(formatDuration(std::abs(range.second - range.first)));
    const int tw = c.fm.horizontalAdvance(text) + 12;
    const double cx = std::clamp((xa + xb) / 2, tw / 2.0, c.dw - tw / 2.0);
    const QRect box(kXOff + static_cast<int>(cx) - tw / 2, R::kRulerHeight + 2, tw, 18);
    c.p.fillRect(box, c.theme.highlight);
    c.p.setPen(c.theme.ink_on_light);
    c.p.drawText(box, Qt::AlignCenter, text);
}

// The ruler's major and minor ticks with their labels, the time origin's marker.
void paint_ruler_ticks(PaintContext& c) {
    QPainter& p = c.p;
    const TimelineViewState& s = c.s;
    const int h = R::kRulerHeight;
    const double step = niceStep(110.0 * s.mapping.nsPerPixel());
    const auto origin = static_cast<double>(R::originNs(c.data, s));
    const double rel0 = s.mapping.startNs() - origin;
    const double minor = step / 5.0;
    p.setPen(c.theme.dim_text);
    for (double m = std::floor(rel0 / step) * step; m < rel0 + s.mapping.durationNs() + minor;
         m += minor) {
        const double x = s.mapping.mapTimeToX(m + origin);
        if (x < 0 || x >= c.dw)
            continue;
        const int xi = kXOff + static_cast<int>(std::lround(x));
        p.drawLine(xi, h - 5, xi, h - 1);
    }
    for (const RulerTick& tick : R::rulerTicks(c.data, s, c.w, p.fontMetrics())) {
        const int xi = kXOff + static_cast<int>(std::lround(tick.x));
        p.setPen(c.theme.text);
        p.drawLine(xi, h - 12, xi, h - 1);
        if (!tick.label.isEmpty())
            p.drawText(tick.label_rect, Qt::AlignLeft | Qt::AlignVCenter, tick.label);
    }
    // A chosen time origin: a marker where the ruler reads 0.
    if (s.origin_ns) {
        const double x = s.mapping.mapTimeToX(origin);
        if (x >= 0 && x < c.dw) {
            const auto xo = static_cast<double>(kXOff) + x;
            QPolygonF mark;
            mark << QPointF(xo - 5, 0) << QPointF(xo + 5, 0) << QPointF(xo, 8);
            p.setPen(Qt::NoPen);
            p.setBrush(c.theme.highlight);
            p.drawPolygon(mark);
            p.setBrush(Qt::NoBrush);
        }
    }
}

void paint_ruler(PaintContext& c) {
    QPainter& p = c.p;
    const int h = R::kRulerHeight;
    p.fillRect(QRect(0, 0, c.w, h), c.theme.ruler);
    p.setPen(c.theme.separator);
    p.drawLine(0, h - 1, c.w, h - 1);
    paint_ruler_ticks(c);
    // The window's extent (and a chosen origin) in the label column's corner.
    const TimeAxisMapping& m = c.s.mapping;
    p.fillRect(QRect(0, 0, kXOff, h - 1), c.theme.label_background);
    p.setPen(c.s.origin_ns ? c.theme.highlight : c.theme.dim_text);
    const QString extent = QStringLiteral("view %1 · %2/px")
                               .arg(formatDuration(m.durationNs()), formatDuration(m.nsPerPixel()));
    p.drawText(QRect(8, 0, kXOff - 12, h - 1), Qt::AlignLeft | Qt::AlignVCenter,
               c.s.origin_ns ? QStringLiteral("t = 0 at ▾ · %1").arg(extent) : extent);
}

void paint_legend(PaintContext& c) {
    QPainter& p = c.p;
    const int h = R::kLegendHeight;
    const int y = c.size.height() - h;
    p.fillRect(QRect(0, y, c.w, h), c.theme.ruler);
    p.setPen(c.theme.separator);
    p.drawLine(0, y, c.w, y);
    static constexpr Category kShown[] = {
        Category::Conv,          Category::Gemm,      Category::Elementwise, Category::Reduction,
        Category::Normalization, Category::Optimizer, Category::OtherKernel, Category::Memcpy,
        Category::Memset,        Category::Sync,      Category::RuntimeApi};
    const QFontMetrics fm = p.fontMetrics();
    int x = 8;
    for (Category cat : kShown) {
        const QString label = QString::fromLatin1(
            category_name(cat).data(), static_cast<qsizetype>(category_name(cat).size()));
        p.fillRect(QRect(x, y + 7, 12, 10), category_color(cat));
        p.setPen(c.theme.text);
        p.drawText(QPoint(x + 16, y + 16), label);
        x += 16 + fm.horizontalAdvance(label) + 14;
    }
    R::paintFold(p, QRect(x, y + 6, 18, 12), category_color(Category::Conv));
    p.setPen(c.theme.text);
    p.drawText(QPoint(x + 22, y + 16), QStringLiteral("folded (< 3 px each)"));
}

// An outline's frame (TimelineData::buildOutline) says that it shows summaries only.
void paint_loading_note(PaintContext& c) {
    const QString text = QCoreApplication::translate(
        "TimelineRenderer", "Loading events… painted from the stored summaries");
    const int w = c.fm.horizontalAdvance(text) + 12;
    const QRect rect(c.w - w - 4, 4, w, R::kRulerHeight - 10);
    c.p.setFont(c.small);
    c.p.fillRect(rect, c.theme.ruler);
    c.p.setPen(c.theme.text);
    c.p.drawRect(rect.adjusted(0, 0, -1, -1));
    c.p.drawText(rect, Qt::AlignCenter, text);
}

}  // namespace

void TimelineRenderer::paint(QPainter& p, const TimelineData& data, const TimelineViewState& s,
                             QSize size, std::vector<DrawItem>& list) {
    buildDrawList(data, s, size, list);
    PaintContext c(p, data, s, size, list);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(QRect(0, 0, c.w, size.height()), c.theme.background);

    // The host rows scroll in [scroll_top, clip_bottom); the pinned device rows own
    // [kRulerHeight, scroll_top). Each part is painted inside its own clip.
    const auto pinned_rows = static_cast<std::size_t>(s.pinned_rows);
    const auto first_host_item = static_cast<std::size_t>(
        std::find_if(list.begin(), list.end(),
                     [&](const DrawItem& item) { return item.row >= s.pinned_rows; }) -
        list.begin());
    const QRect host_area(0, c.scroll_top, c.w, c.clip_bottom - c.scroll_top);
    const QRect pinned_area(0, kRulerHeight, c.w, s.pinned_height);
    paint_rows(c, pinned_rows, data.rows().size(), first_host_item, list.size(), host_area);
    paintRankHeaders(p, data, s, size);
    paint_rows(c, 0, pinned_rows, 0, first_host_item, pinned_area);
    if (s.pinned_rows > 0 && s.scroll_y > 0) {
        // Host rows are scrolled under the pinned device rows: a firm edge says so.
        p.fillRect(QRect(0, c.scroll_top - 1, c.w, 2), c.theme.separator);
    }
    p.setFont(c.small);
    paint_selection_and_flow(c);
    paintCollectiveHighlight(p, data, s, size);
    if (s.range)
        paint_range_band(c);
    paint_ruler(c);
    if (s.range)
        paint_range_duration(c);
    paint_legend(c);
    if (data.partial())
        paint_loading_note(c);
}

}  // namespace trainscope::gui
