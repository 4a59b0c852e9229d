#include "gui/charts/LineChart.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "gui/timeline/TimeFormat.hpp"

namespace trainscope::gui {

bool chartHasWarnings(const ChartData& chart) {
    for (const auto& s : chart.series) {
        for (const auto& p : s.points) {
            if (!p.warning.isEmpty())
                return true;
        }
    }
    return false;
}

LineChart::LineChart(QWidget* parent) : QWidget(parent) {
    setMinimumSize(300, 200);
}

void LineChart::setData(ChartData chart) {
    data_ = std::move(chart);
    update();
}

void LineChart::setDark(bool dark) {
    dark_ = dark;
    update();
}

void LineChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    hits_.clear();
    paint(p, rect(), data_, dark_, &hits_);
}

QImage LineChart::renderImage(QSize size) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    p.setFont(font());
    paint(p, QRect(QPoint(0, 0), size), data_, dark_);
    return image;
}

double chartXFraction(const ChartData& chart, int index) {
    const auto count = static_cast<int>(chart.x_labels.size());
    if (count <= 1) {
        return 0.5;
    }
    if (chart.x_values.size() != static_cast<std::size_t>(count)) {
        return static_cast<double>(index) / (count - 1);
    }
    const auto scaled = [&](double v) { return chart.log_x ? std::log2(v) : v; };
    const double first = scaled(chart.x_values.front());
    const double last = scaled(chart.x_values.back());
    if (!(last > first)) {
        return static_cast<double>(index) / (count - 1);
    }
    return (scaled(chart.x_values[static_cast<std::size_t>(index)]) - first) / (last - first);
}

namespace {

QString format_value(double v) {
    const double a = std::abs(v);
    if (a >= 1e6)
        return QString::number(v / 1e6, 'f', 1) + QStringLiteral("M");
    if (a >= 1e4)
        return QString::number(v / 1e3, 'f', 1) + QStringLiteral("k");
    return QString::number(v, 'g', 4);
}

// Where the chart's values and positions land: the plot rectangle and the value range.
struct ChartFrame {
    const ChartData& data;
    QRect rect;
    QRect plot;
    double lo = 0;
    double hi = 1;
    [[nodiscard]] double x(int index) const {
        return plot.left() + 20 + (plot.width() - 40.0) * chartXFraction(data, index);
    }
    [[nodiscard]] double y(double v) const {
        return plot.bottom() - (v - lo) / (hi - lo) * plot.height();
    }
};

// The value range of the points and their intervals, padded; from zero when that does
// not squash the data. Empty when there is nothing to plot.
std::optional<std::pair<double, double>> value_range(const ChartData& data) {
    double lo = std::numeric_limits<double>::max();
    double hi = std::numeric_limits<double>::lowest();
    for (const auto& s : data.series) {
        for (const auto& pt : s.points) {
            lo = std::min({lo, pt.y, pt.low.value_or(pt.y)});
            hi = std::max({hi, pt.y, pt.high.value_or(pt.y)});
        }
    }
    if (data.series.empty() || data.x_labels.isEmpty() || lo > hi)
        return std::nullopt;
    if (lo >= 0 && lo < (hi - lo))
        lo = 0;
    const double pad = (hi - lo) * 0.08 + (hi == lo ? std::max(std::abs(hi) * 0.1, 1.0) : 0.0);
    hi += pad;
    if (lo != 0)
        lo -= pad;
    return std::make_pair(lo, hi);
}

// The title and, under it, which interval the error bars are (a median's and a mean's
// read differently). Leaves the regular (not bold) font set.
void paint_titles(QPainter& p, const QRect& rect, const ChartData& data, const Theme& theme) {
    QFont title_font = p.font();
    title_font.setBold(true);
    p.setFont(title_font);
    p.setPen(theme.text);
    p.drawText(rect.adjusted(10, 6, -10, 0), Qt::AlignTop | Qt::AlignHCenter, data.title);
    p.setFont(QFont(title_font.family(), title_font.pointSize()));
    if (!data.interval_name.isEmpty()) {
        QFont note_font = p.font();
        note_font.setPointSizeF(note_font.pointSizeF() * 0.85);
        p.save();
        p.setFont(note_font);
        p.drawText(rect.adjusted(10, 22, -10, 0), Qt::AlignTop | Qt::AlignHCenter,
                   QObject::tr("Error bars: %1").arg(data.interval_name));
        p.restore();
    }
}

// Horizontal grid lines at nice steps with their values on the left.
void paint_value_grid(QPainter& p, const ChartFrame& f, const Theme& theme) {
    const double step = niceStep((f.hi - f.lo) / 6.0);
    p.setPen(theme.grid);
    for (double v = std::ceil(f.lo / step) * step; v <= f.hi; v += step) {
        const double y = f.y(v);
        p.setPen(theme.grid);
        p.drawLine(QPointF(f.plot.left(), y), QPointF(f.plot.right(), y));
        p.setPen(theme.text);
        p.drawText(QRectF(f.rect.left(), y - 8, 64, 16), Qt::AlignRight | Qt::AlignVCenter,
                   format_value(v));
    }
}

// The axes, the x ticks with the labels that fit, the axis titles.
void paint_axes(QPainter& p, const ChartFrame& f, const Theme& theme) {
    const ChartData& data = f.data;
    const QRect& plot = f.plot;
    p.setPen(theme.text);
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    // Numeric positions can crowd: a label is drawn only where it clears the last one.
    double last_label_right = std::numeric_limits<double>::lowest();
    for (int i = 0; i < static_cast<int>(data.x_labels.size()); ++i) {
        p.drawLine(QPointF(f.x(i), plot.bottom()), QPointF(f.x(i), plot.bottom() + 4));
        const double half_width = p.fontMetrics().horizontalAdvance(data.x_labels[i]) / 2.0 + 3;
        if (f.x(i) - half_width >= last_label_right) {
            p.drawText(QRectF(f.x(i) - 50, plot.bottom() + 6, 100, 16), Qt::AlignCenter,
                       data.x_labels[i]);
            last_label_right = f.x(i) + half_width;
        }
    }
    const QString x_title =
        data.log_x ? QObject::tr("%1 (log scale)").arg(data.x_title) : data.x_title;
    p.drawText(QRect(plot.left(), plot.bottom() + 24, plot.width(), 18), Qt::AlignCenter, x_title);
    p.save();
    p.translate(f.rect.left() + 12, plot.center().y());
    p.rotate(-90);
    p.drawText(QRect(-plot.height() / 2, -10, plot.height(), 18), Qt::AlignCenter, data.y_title);
    p.restore();
}

// The band between the interval bounds of the points that have one.
void paint_band(QPainter& p, const ChartFrame& f, const ChartSeries& s, const QColor& c) {
    QPolygonF upper;
    QPolygonF lower;
    for (const auto& pt : s.points) {
        if (pt.low && pt.high) {
            upper << QPointF(f.x(pt.x), f.y(*pt.high));
            lower.prepend(QPointF(f.x(pt.x), f.y(*pt.low)));
        }
    }
    if (upper.size() > 1) {
        QColor band = c;
        band.setAlpha(45);
        p.setPen(Qt::NoPen);
        p.setBrush(band);
        p.drawPolygon(upper + lower);
    }
    p.setBrush(Qt::NoBrush);
}

// A point's tooltip: series, x, y, interval, measurement warning.
QString point_text(const ChartData& data, const ChartSeries& s, const ChartPoint& pt,
                   const Theme& theme) {
    QString text = QStringLiteral("<b>%1</b><br>%2 = %3<br>%4 = %5")
                       .arg(s.label.toHtmlEscaped(), data.x_title.toHtmlEscaped(),
                            data.x_labels.value(pt.x), data.y_title.toHtmlEscaped())
                       .arg(pt.y, 0, 'g', 6);
    if (pt.low && pt.high)
        text += QStringLiteral("<br>%1 [%2, %3]")
                    .arg(data.interval_name.toHtmlEscaped())
                    .arg(*pt.low, 0, 'g', 6)
                    .arg(*pt.high, 0, 'g', 6);
    if (!pt.warning.isEmpty())
        text += QStringLiteral("<br><span style=\"color:%1\">⚠ %2</span>")
                    .arg(theme.warning.name(), pt.warning.toHtmlEscaped().replace(
                                                   QLatin1Char('\n'), QStringLiteral("<br>⚠ ")));
    return text;
}

// A point with its error bar: filled, or hollow and amber-ringed (larger) when it was
// measured on a busy machine.
void paint_point(QPainter& p, const ChartFrame& f, const ChartPoint& pt, const QColor& c,
                 const Theme& theme) {
    const double x = f.x(pt.x);
    if (pt.low && pt.high) {
        p.setPen(QPen(c, 1.2));
        p.drawLine(QPointF(x, f.y(*pt.low)), QPointF(x, f.y(*pt.high)));
        p.drawLine(QPointF(x - 4, f.y(*pt.low)), QPointF(x + 4, f.y(*pt.low)));
        p.drawLine(QPointF(x - 4, f.y(*pt.high)), QPointF(x + 4, f.y(*pt.high)));
    }
    if (pt.warning.isEmpty()) {
        p.setPen(QPen(theme.background, 1.5));
        p.setBrush(c);
        p.drawEllipse(QPointF(x, f.y(pt.y)), 4, 4);
    } else {
        p.setPen(QPen(theme.warning, 2.5));
        p.setBrush(theme.background);
        p.drawEllipse(QPointF(x, f.y(pt.y)), 5.5, 5.5);
    }
}

// Series `index`: band, line, points (their tooltips into `hits`), legend entry.
void paint_series(QPainter& p, const ChartFrame& f, std::size_t index, const Theme& theme,
                  std::vector<LineChart::PointHit>* hits) {
    const ChartSeries& s = f.data.series[index];
    const QColor c = seriesColor(static_cast<int>(index));
    paint_band(p, f, s, c);
    QPainterPath line;
    for (std::size_t i = 0; i < s.points.size(); ++i) {
        const QPointF pt(f.x(s.points[i].x), f.y(s.points[i].y));
        if (i == 0)
            line.moveTo(pt);
        else
            line.lineTo(pt);
    }
    p.setPen(QPen(c, 2));
    p.drawPath(line);
    for (const auto& pt : s.points) {
        paint_point(p, f, pt, c, theme);
        if (hits)
            hits->push_back({QPointF(f.x(pt.x), f.y(pt.y)), point_text(f.data, s, pt, theme)});
        p.setBrush(Qt::NoBrush);
    }
    // Legend on the right.
    const int ly = f.plot.top() + 6 + static_cast<int>(index) * 20;
    p.setPen(QPen(c, 3));
    p.drawLine(f.plot.right() + 16, ly + 8, f.plot.right() + 36, ly + 8);
    p.setPen(theme.text);
    p.drawText(QRect(f.plot.right() + 42, ly, 115, 16), Qt::AlignLeft | Qt::AlignVCenter, s.label);
}

// The legend's explanation of the busy-machine mark, under the series.
void paint_warning_legend(QPainter& p, const ChartFrame& f, const Theme& theme) {
    const int ly = f.plot.top() + 6 + static_cast<int>(f.data.series.size()) * 20 + 6;
    p.setPen(QPen(theme.warning, 2.5));
    p.setBrush(theme.background);
    p.drawEllipse(QPointF(f.plot.right() + 26, ly + 8), 5.5, 5.5);
    p.setPen(theme.text);
    p.drawText(QRect(f.plot.right() + 42, ly, 115, 16), Qt::AlignLeft | Qt::AlignVCenter,
               QObject::tr("busy machine"));
}

void paint_chart(QPainter& p, const QRect& rect, const ChartData& data, bool dark,
                 std::vector<LineChart::PointHit>* hits) {
    const Theme& theme = Theme::get(dark);
    p.fillRect(rect, theme.background);
    p.setRenderHint(QPainter::Antialiasing, true);
    paint_titles(p, rect, data, theme);
    const auto range = value_range(data);
    if (!range) {
        p.drawText(rect, Qt::AlignCenter, QObject::tr("No data for this metric"));
        return;
    }
    const ChartFrame frame{data, rect, rect.adjusted(70, 40, -160, -48), range->first,
                           range->second};
    paint_value_grid(p, frame, theme);
    paint_axes(p, frame, theme);
    for (std::size_t si = 0; si < data.series.size(); ++si)
        paint_series(p, frame, si, theme, hits);
    if (chartHasWarnings(data))
        paint_warning_legend(p, frame, theme);
    p.setRenderHint(QPainter::Antialiasing, false);
}

}  // namespace

void LineChart::paint(QPainter& painter, const QRect& rect, const ChartData& chart, bool dark,
                      std::vector<PointHit>* hits) {
    paint_chart(painter, rect, chart, dark, hits);
}

QString LineChart::pointTextAt(QPointF pos) const {
    for (const PointHit& h : hits_) {
        const QPointF d = h.pos - pos;
        if (d.x() * d.x() + d.y() * d.y() <= 64.0)
            return h.text;
    }
    return {};
}

bool LineChart::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = pointTextAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace trainscope::gui
