#include "gui/utilization/UtilizationView.hpp"

#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "gui/app/Theme.hpp"
#include "gui/timeline/TimeFormat.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "gui/utilization/MemoryLane.hpp"
#include "reports/memory/MemorySeries.hpp"

namespace trainscope::gui {

UtilizationView::UtilizationView(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(kMinTrackHeight + kAxisHeight);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void UtilizationView::setData(std::shared_ptr<const TimelineData> timeline) {
    data_ = std::move(timeline);
    updateGeometry();
    update();
}

int UtilizationView::trackCount() const {
    if (!data_)
        return 0;
    const int compute = data_->computeThreadBusy().thread_count() > 0 ? 1 : 0;
    const auto memory = static_cast<int>(data_->memoryStacks().size());
    const auto counters = std::count_if(
        data_->trace().counters.begin(), data_->trace().counters.end(),
        [](const profiler::CounterSeries& s) { return !reports::is_memory_series(s); });
    return static_cast<int>(data_->deviceBusy().size()) + static_cast<int>(counters) + compute +
           memory;
}

int UtilizationView::trackHeight(int height, int tracks) {
    if (tracks <= 0)
        return kTrackHeight;
    return std::max(kMinTrackHeight, (height - kAxisHeight - 4) / tracks);
}

QSize UtilizationView::sizeHint() const {
    return QSize(800, std::max(1, trackCount()) * kTrackHeight + kAxisHeight + 4);
}

void UtilizationView::setMapping(const TimeAxisMapping& mapping) {
    mapping_ = mapping;
    update();
}

void UtilizationView::setDark(bool dark) {
    dark_ = dark;
    update();
}

void UtilizationView::wheelEvent(QWheelEvent* event) {
    emit wheelZoom(std::pow(0.8, event->angleDelta().y() / 120.0),
                   event->position().x() - TimelineRenderer::kLabelWidth);
    event->accept();
}

QImage UtilizationView::renderImage(QSize size) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::black);
    if (data_) {
        QPainter p(&image);
        p.setFont(font());
        paint(p, *data_, mapping_.withWidth(TimelineRenderer::dataWidth(size.width())), size,
              dark_);
    }
    return image;
}

void UtilizationView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (!data_) {
        p.fillRect(rect(), palette().window());
        return;
    }
    // The timeline's data area ends before its scroll bar: keep our axis identical.
    paint(p, *data_, mapping_, size(), dark_);
}

namespace {

constexpr int kTickLabelWidth = 64;

struct Track {
    QString title;
    QString unit;
    std::vector<std::pair<double, double>> points;  // (x px, value)
    double max = 1.0;
    bool percent = false;
    QColor color;
};

QString format_value(double v, const QString& unit) {
    if (unit == QStringLiteral("bytes"))
        return formatBytes(v);
    if (unit == QStringLiteral("%"))
        return QStringLiteral("%1 %").arg(v, 0, 'f', 0);
    return QStringLiteral("%1 %2").arg(v, 0, 'f', v >= 100 || v == 0 ? 0 : 1).arg(unit);
}

// Ticks at 0, half and full scale with their values, right-aligned against the plot,
// and faint grid lines across it, so the height of a step reads as a number.
void paint_y_ticks(QPainter& p, const Theme& theme, const Track& t, const QRect& area) {
    const QFontMetrics fm = p.fontMetrics();
    for (int k = 0; k <= 2; ++k) {
        const double value = t.max * k / 2.0;
        const int y = area.bottom() - static_cast<int>(std::lround(area.height() * k / 2.0));
        if (k > 0) {
            p.setPen(theme.grid);
            p.drawLine(area.left(), y, area.right(), y);
        }
        p.setPen(theme.dim_text);
        p.drawLine(area.left() - 4, y, area.left() - 1, y);
        const QString label = format_value(value, t.unit);
        const int ty =
            std::clamp(y - fm.height() / 2, area.top() - 4, area.bottom() - fm.height() + 4);
        p.drawText(QRect(area.left() - 8 - fm.horizontalAdvance(label), ty,
                         fm.horizontalAdvance(label) + 2, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, label);
    }
}

// A busy-% track: one point per bucket of kBucketPx pixels, `percent(t0, t1)` each.
template <class Percent>
Track busy_track(QString title, const TimeAxisMapping& m, const Theme& theme, Percent percent) {
    Track t;
    t.title = std::move(title);
    t.unit = QStringLiteral("%");
    t.percent = true;
    t.max = 100.0;
    t.color = theme.device;
    constexpr int kBucketPx = UtilizationView::kBucketPx;
    for (int x = 0; x < m.width(); x += kBucketPx) {
        const double t0 = m.mapXToTime(x);
        const double t1 = m.mapXToTime(x + kBucketPx);
        t.points.emplace_back(x, percent(t0, t1));
    }
    return t;
}

// A counter's samples in view plus one on each side (so the step line reaches the
// edges), at most one point per pixel: each pixel's maximum.
Track counter_track(const profiler::CounterSeries& series, const TimeAxisMapping& m,
                    const Theme& theme) {
    Track t;
    t.title = QStringLiteral("%1%2").arg(
        QString::fromStdString(series.name),
        series.device >= 0 ? QStringLiteral(" · GPU %1").arg(series.device) : QString());
    t.unit = QString::fromStdString(series.unit);
    t.percent = t.unit == QStringLiteral("%");
    t.color = t.percent
                  ? theme.counter_percent
                  : (t.unit == QStringLiteral("W") ? theme.counter_power : theme.counter_other);
    double mx = 0;
    for (const auto& s : series.samples)
        mx = std::max(mx, s.value);
    t.max = t.percent ? 100.0 : (mx > 0 ? mx * 1.1 : 1.0);
    const auto& sm = series.samples;
    const auto before = [](const profiler::CounterSample& s, double tv) {
        return static_cast<double>(s.t_ns) < tv;
    };
    auto b = std::lower_bound(sm.begin(), sm.end(), m.startNs(), before);
    auto e = std::lower_bound(b, sm.end(), m.endNs(), before);
    if (b != sm.begin())
        --b;
    if (e != sm.end())
        ++e;
    double last_x = -1e18;
    for (auto it = b; it != e; ++it) {
        const double x = m.mapTimeToX(static_cast<double>(it->t_ns));
        if (!t.points.empty() && x - last_x < 1.0) {
            t.points.back().second = std::max(t.points.back().second, it->value);
            continue;
        }
        t.points.emplace_back(x, it->value);
        last_x = x;
    }
    return t;
}

// The tracks in display order: busy % per device (the union of GPU work per bucket,
// exact via the running sums), a CPU-backend run's compute-thread busy %, the counters.
std::vector<Track> collect_tracks(const TimelineData& td, const TimeAxisMapping& m,
                                  const Theme& theme) {
    std::vector<Track> tracks;
    const bool ranks = td.trace().names_devices_by_rank();
    for (const DeviceBusy& busy : td.deviceBusy()) {
        const QString title =
            ranks
                ? QObject::tr("rank %1 · GPU %2 busy (from trace)").arg(busy.rank).arg(busy.device)
                : QObject::tr("GPU %1 busy (from trace)").arg(busy.device);
        tracks.push_back(busy_track(title, m, theme, [&](double t0, double t1) {
            return 100.0 * busy.busyNs(t0, t1) / (t1 - t0);
        }));
    }
    if (const auto& cpu = td.computeThreadBusy(); cpu.thread_count() > 0) {
        const QString title =
            cpu.thread_count() == 1
                ? QObject::tr("CPU busy (ops, 1 thread)")
                : QObject::tr("CPU busy (ops, %1 threads)").arg(cpu.thread_count());
        tracks.push_back(busy_track(
            title, m, theme, [&](double t0, double t1) { return 100.0 * cpu.busy_share(t0, t1); }));
    }
    for (const auto& series : td.trace().counters) {
        if (!reports::is_memory_series(series))  // the memory lane stacks those
            tracks.push_back(counter_track(series, m, theme));
    }
    return tracks;
}

// The step outline of a track's points, closed along the plot's bottom.
QPainterPath fill_path(const Track& t, const QRect& area) {
    constexpr int kBucketPx = UtilizationView::kBucketPx;
    QPainterPath fill;
    fill.moveTo(area.left() + (t.points.empty() ? 0.0 : std::max(t.points.front().first, 0.0)),
                area.bottom());
    auto y_of = [&](double v) {
        return area.bottom() - std::clamp(v / t.max, 0.0, 1.0) * area.height();
    };
    for (std::size_t k = 0; k < t.points.size(); ++k) {
        const double x = area.left() + t.points[k].first;
        const double next_x = k + 1 < t.points.size() ? area.left() + t.points[k + 1].first
                                                      : area.left() + t.points[k].first + kBucketPx;
        fill.lineTo(x, y_of(t.points[k].second));
        fill.lineTo(next_x, y_of(t.points[k].second));
    }
    if (!t.points.empty()) {
        const double end_x = area.left() + t.points.back().first + kBucketPx;
        fill.lineTo(std::min(end_x, static_cast<double>(area.right())), area.bottom());
    }
    fill.closeSubpath();
    return fill;
}

// Track `index` of height track_h: background, title, y ticks, the filled step line.
void paint_track(QPainter& p, const Theme& theme, const Track& t, int index, int track_h, int dw,
                 QSize size) {
    const int x_off = TimelineRenderer::kLabelWidth;
    const int top = index * track_h + 2;
    const QRect area(x_off, top + 8, dw, track_h - 14);
    if (index % 2 == 1)
        p.fillRect(QRect(x_off, top, dw, track_h), theme.lane_alt);
    p.fillRect(QRect(0, top, x_off, track_h), theme.label_background);
    p.setPen(theme.separator);
    p.drawLine(0, top, size.width(), top);
    p.setPen(theme.text);
    // The right of the label column holds the y ticks: the title wraps beside them.
    p.drawText(QRect(10, top + 4, x_off - kTickLabelWidth - 14, track_h - 8),
               Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, t.title);
    paint_y_ticks(p, theme, t, area);
    p.setClipRect(area.adjusted(0, -2, 0, 2));
    QColor c = t.color;
    c.setAlpha(110);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillPath(fill_path(t, area), c);
    p.setPen(t.color);
    p.drawLine(area.bottomLeft(), area.bottomRight());
    p.setClipping(false);
}

// A memory lane in the place of track `index`, under the utilization tracks; in a
// multi-rank run one per rank, each titled with its rank.
void paint_memory_lane(QPainter& p, const Theme& theme, const reports::MemoryStack& stack,
                       bool name_rank, const TimeAxisMapping& m, int index, int track_h,
                       QSize size) {
    const int x_off = TimelineRenderer::kLabelWidth;
    const int top = index * track_h + 2;
    p.fillRect(QRect(0, top, x_off, track_h), theme.label_background);
    p.setPen(theme.separator);
    p.drawLine(0, top, size.width(), top);
    const QString title = name_rank
                              ? QObject::tr("rank %1 · memory by tensor class").arg(stack.rank)
                              : QObject::tr("memory by tensor class");
    MemoryLane::paint(p, theme, stack, m, QRect(x_off, top + 8, m.width(), track_h - 14),
                      QRect(0, top + 4, x_off, track_h - 8), title);
}

// The time axis below the tracks, on the timeline's clock (relative to the trace begin).
void paint_time_axis(QPainter& p, const Theme& theme, const TimelineData& td,
                     const TimeAxisMapping& m, int axis_y, QSize size) {
    const int x_off = TimelineRenderer::kLabelWidth;
    const int axis_h = UtilizationView::kAxisHeight;
    p.fillRect(QRect(0, axis_y, size.width(), axis_h), theme.ruler);
    p.setPen(theme.separator);
    p.drawLine(0, axis_y, size.width(), axis_y);
    const double step = niceStep(110.0 * m.nsPerPixel());
    const auto base = static_cast<double>(td.beginNs());
    const double rel0 = m.startNs() - base;
    for (double t = std::floor(rel0 / step) * step; t < rel0 + m.durationNs(); t += step) {
        const double x = m.mapTimeToX(t + base);
        if (x < 0)
            continue;
        const int xi = x_off + static_cast<int>(std::lround(x));
        p.setPen(theme.dim_text);
        p.drawLine(xi, axis_y, xi, axis_y + 5);
        p.setPen(theme.text);
        p.drawText(QRect(xi + 3, axis_y + 2, 110, axis_h - 4), Qt::AlignLeft | Qt::AlignVCenter,
                   formatTick(t, step));
    }
}

}  // namespace

void UtilizationView::paint(QPainter& p, const TimelineData& timeline, const TimeAxisMapping& m,
                            QSize size, bool dark) {
    const Theme& theme = Theme::get(dark);
    const int x_off = TimelineRenderer::kLabelWidth;
    p.fillRect(QRect(QPoint(0, 0), size), theme.background);
    const std::vector<Track> tracks = collect_tracks(timeline, m, theme);
    const std::vector<reports::MemoryStack>& memory = timeline.memoryStacks();
    const int lanes = static_cast<int>(tracks.size() + memory.size());
    const int track_h = trackHeight(size.height(), lanes);
    QFont small = p.font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.85));
    p.setFont(small);
    for (std::size_t i = 0; i < tracks.size(); ++i)
        paint_track(p, theme, tracks[i], static_cast<int>(i), track_h, m.width(), size);
    for (std::size_t i = 0; i < memory.size(); ++i) {
        paint_memory_lane(p, theme, memory[i], memory.size() > 1, m,
                          static_cast<int>(tracks.size() + i), track_h, size);
    }
    const int axis_y = lanes * track_h + 2;
    paint_time_axis(p, theme, timeline, m, axis_y, size);
    p.setPen(theme.separator);
    p.drawLine(x_off - 1, 0, x_off - 1, axis_y + kAxisHeight);
}

}  // namespace trainscope::gui
