#include "gui/utilization/UtilizationView.hpp"

#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "gui/timeline/TimeFormat.hpp"
#include "gui/timeline/TimelineRenderer.hpp"

namespace trainscope::gui {

UtilizationView::UtilizationView(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(kTrackHeight);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void UtilizationView::setData(std::shared_ptr<const TimelineData> timeline) {
    data_ = std::move(timeline);
    updateGeometry();
    update();
}

int UtilizationView::trackCount() const {
    return data_ ? static_cast<int>(data_->deviceBusy().size() + data_->trace().counters.size())
                 : 0;
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
    return QStringLiteral("%1 %2").arg(v, 0, 'f', v >= 100 ? 0 : 1).arg(unit);
}

}  // namespace

void UtilizationView::paint(QPainter& p, const TimelineData& timeline, const TimeAxisMapping& m,
                            QSize size, bool dark) {
    const TimelineData& td = timeline;
    const TimelineTheme theme = TimelineTheme::make(dark);
    const int x_off = TimelineRenderer::kLabelWidth;
    const int dw = m.width();
    p.fillRect(QRect(QPoint(0, 0), size), theme.background);
    std::vector<Track> tracks;
    // Busy %: the union of GPU work per bucket, exact via the running sums.
    for (const DeviceBusy& busy : td.deviceBusy()) {
        Track t;
        t.title = QObject::tr("GPU %1 busy (from trace)").arg(busy.device);
        t.unit = QStringLiteral("%");
        t.percent = true;
        t.max = 100.0;
        t.color = QColor(0x76, 0xb9, 0x00);
        for (int x = 0; x < dw; x += kBucketPx) {
            const double t0 = m.mapXToTime(x);
            const double t1 = m.mapXToTime(x + kBucketPx);
            t.points.emplace_back(x, 100.0 * busy.busyNs(t0, t1) / (t1 - t0));
        }
        tracks.push_back(std::move(t));
    }
    for (const auto& series : td.trace().counters) {
        Track t;
        t.title = QStringLiteral("%1%2").arg(
            QString::fromStdString(series.name),
            series.device >= 0 ? QStringLiteral(" · GPU %1").arg(series.device) : QString());
        t.unit = QString::fromStdString(series.unit);
        t.percent = t.unit == QStringLiteral("%");
        t.color = t.percent ? QColor(0x3d, 0x7e, 0xdb)
                            : (t.unit == QStringLiteral("W") ? QColor(0xf0, 0x8c, 0x28)
                                                             : QColor(0x8e, 0x5c, 0xd6));
        double mx = 0;
        for (const auto& s : series.samples)
            mx = std::max(mx, s.value);
        t.max = t.percent ? 100.0 : (mx > 0 ? mx * 1.1 : 1.0);
        // Samples in view plus one on each side, so the step line reaches the edges.
        const auto& sm = series.samples;
        auto b = std::lower_bound(sm.begin(), sm.end(), m.startNs(),
                                  [](const profiler::CounterSample& s, double tv) {
                                      return static_cast<double>(s.t_ns) < tv;
                                  });
        auto e = std::lower_bound(b, sm.end(), m.endNs(),
                                  [](const profiler::CounterSample& s, double tv) {
                                      return static_cast<double>(s.t_ns) < tv;
                                  });
        if (b != sm.begin())
            --b;
        if (e != sm.end())
            ++e;
        // At most one point per pixel: keep each pixel's maximum.
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
        tracks.push_back(std::move(t));
    }
    QFont small = p.font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.85));
    p.setFont(small);
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        const Track& t = tracks[i];
        const int top = static_cast<int>(i) * kTrackHeight + 2;
        const QRect area(x_off, top + 4, dw, kTrackHeight - 10);
        if (i % 2 == 1)
            p.fillRect(QRect(x_off, top, dw, kTrackHeight), theme.lane_alt);
        p.fillRect(QRect(0, top, x_off, kTrackHeight), theme.label_background);
        p.setPen(theme.separator);
        p.drawLine(0, top, size.width(), top);
        p.setPen(theme.text);
        p.drawText(QRect(10, top + 4, x_off - 14, 16), Qt::AlignLeft | Qt::AlignVCenter, t.title);
        p.setPen(theme.dim_text);
        p.drawText(QRect(10, top + 22, x_off - 14, 16), Qt::AlignLeft | Qt::AlignVCenter,
                   QObject::tr("max %1").arg(format_value(t.max, t.unit)));
        p.setClipRect(area.adjusted(0, -2, 0, 2));
        QPainterPath fill;
        fill.moveTo(area.left() + (t.points.empty() ? 0.0 : std::max(t.points.front().first, 0.0)),
                    area.bottom());
        auto y_of = [&](double v) {
            return area.bottom() - std::clamp(v / t.max, 0.0, 1.0) * area.height();
        };
        for (std::size_t k = 0; k < t.points.size(); ++k) {
            const double x = area.left() + t.points[k].first;
            const double next_x = k + 1 < t.points.size()
                                      ? area.left() + t.points[k + 1].first
                                      : area.left() + t.points[k].first + kBucketPx;
            fill.lineTo(x, y_of(t.points[k].second));
            fill.lineTo(next_x, y_of(t.points[k].second));
        }
        if (!t.points.empty()) {
            const double end_x = area.left() + t.points.back().first + kBucketPx;
            fill.lineTo(std::min(end_x, static_cast<double>(area.right())), area.bottom());
        }
        fill.closeSubpath();
        QColor c = t.color;
        c.setAlpha(110);
        p.setRenderHint(QPainter::Antialiasing, false);
        p.fillPath(fill, c);
        p.setPen(t.color);
        p.drawLine(area.bottomLeft(), area.bottomRight());
        p.setClipping(false);
    }
    // Time axis below the tracks, on the timeline's clock (relative to the trace begin).
    const int axis_y = static_cast<int>(tracks.size()) * kTrackHeight + 2;
    p.fillRect(QRect(0, axis_y, size.width(), kAxisHeight), theme.ruler);
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
        p.drawText(QRect(xi + 3, axis_y + 2, 110, kAxisHeight - 4),
                   Qt::AlignLeft | Qt::AlignVCenter, formatTick(t, step));
    }
    p.setPen(theme.separator);
    p.drawLine(x_off - 1, 0, x_off - 1, axis_y + kAxisHeight);
}

}  // namespace trainscope::gui
