#include "gui/charts/LineChart.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

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

QColor seriesColor(int index) {
    static const QColor kColors[] = {QColor(0x3d, 0x7e, 0xdb), QColor(0xf0, 0x8c, 0x28),
                                     QColor(0x3f, 0xb5, 0x6b), QColor(0xe0, 0x4a, 0x4a),
                                     QColor(0x8e, 0x5c, 0xd6), QColor(0x1f, 0xa8, 0xa8),
                                     QColor(0xe8, 0x6f, 0xb8), QColor(0x9a, 0xc2, 0x3c)};
    return kColors[static_cast<std::size_t>(index) % std::size(kColors)];
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
const QColor kWarningColor(0xe0, 0x9a, 0x20);  // the runs table's amber

QString format_value(double v) {
    const double a = std::abs(v);
    if (a >= 1e6)
        return QString::number(v / 1e6, 'f', 1) + QStringLiteral("M");
    if (a >= 1e4)
        return QString::number(v / 1e3, 'f', 1) + QStringLiteral("k");
    return QString::number(v, 'g', 4);
}
void paint_chart(QPainter& p, const QRect& rect, const ChartData& data, bool dark,
                 std::vector<LineChart::PointHit>* hits) {
    const QColor bg = dark ? QColor(0x1e, 0x20, 0x24) : QColor(0xfb, 0xfb, 0xfc);
    const QColor fg = dark ? QColor(0xe6, 0xe6, 0xe6) : QColor(0x20, 0x22, 0x26);
    const QColor grid = dark ? QColor(0x36, 0x3a, 0x41) : QColor(0xdd, 0xe0, 0xe5);
    p.fillRect(rect, bg);
    p.setRenderHint(QPainter::Antialiasing, true);
    QFont title_font = p.font();
    title_font.setBold(true);
    p.setFont(title_font);
    p.setPen(fg);
    p.drawText(rect.adjusted(10, 6, -10, 0), Qt::AlignTop | Qt::AlignHCenter, data.title);
    p.setFont(QFont(title_font.family(), title_font.pointSize()));
    if (!data.interval_name.isEmpty()) {
        // Say which interval the bars are: a median's and a mean's read differently.
        QFont note_font = p.font();
        note_font.setPointSizeF(note_font.pointSizeF() * 0.85);
        p.save();
        p.setFont(note_font);
        p.drawText(rect.adjusted(10, 22, -10, 0), Qt::AlignTop | Qt::AlignHCenter,
                   QObject::tr("Error bars: %1").arg(data.interval_name));
        p.restore();
    }
    double lo = std::numeric_limits<double>::max();
    double hi = std::numeric_limits<double>::lowest();
    for (const auto& s : data.series) {
        for (const auto& pt : s.points) {
            lo = std::min({lo, pt.y, pt.low.value_or(pt.y)});
            hi = std::max({hi, pt.y, pt.high.value_or(pt.y)});
        }
    }
    if (data.series.empty() || data.x_labels.isEmpty() || lo > hi) {
        p.drawText(rect, Qt::AlignCenter, QObject::tr("No data for this metric"));
        return;
    }
    if (lo >= 0 && lo < (hi - lo))
        lo = 0;  // start at zero when that does not squash the data
    const double pad = (hi - lo) * 0.08 + (hi == lo ? std::max(std::abs(hi) * 0.1, 1.0) : 0.0);
    hi += pad;
    if (lo != 0)
        lo -= pad;
    const QRect plot = rect.adjusted(70, 40, -160, -48);
    const double step = niceStep((hi - lo) / 6.0);
    p.setPen(grid);
    for (double v = std::ceil(lo / step) * step; v <= hi; v += step) {
        const double y = plot.bottom() - (v - lo) / (hi - lo) * plot.height();
        p.setPen(grid);
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(fg);
        p.drawText(QRectF(rect.left(), y - 8, 64, 16), Qt::AlignRight | Qt::AlignVCenter,
                   format_value(v));
    }
    const int nx = static_cast<int>(data.x_labels.size());
    auto xpos = [&](int i) {
        return plot.left() + 20 + (plot.width() - 40.0) * chartXFraction(data, i);
    };
    auto ypos = [&](double v) { return plot.bottom() - (v - lo) / (hi - lo) * plot.height(); };
    p.setPen(fg);
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    // Numeric positions can crowd: a label is drawn only where it clears the last one.
    double last_label_right = std::numeric_limits<double>::lowest();
    for (int i = 0; i < nx; ++i) {
        p.drawLine(QPointF(xpos(i), plot.bottom()), QPointF(xpos(i), plot.bottom() + 4));
        const double half_width = p.fontMetrics().horizontalAdvance(data.x_labels[i]) / 2.0 + 3;
        if (xpos(i) - half_width >= last_label_right) {
            p.drawText(QRectF(xpos(i) - 50, plot.bottom() + 6, 100, 16), Qt::AlignCenter,
                       data.x_labels[i]);
            last_label_right = xpos(i) + half_width;
        }
    }
    const QString x_title =
        data.log_x ? QObject::tr("%1 (log scale)").arg(data.x_title) : data.x_title;
    p.drawText(QRect(plot.left(), plot.bottom() + 24, plot.width(), 18), Qt::AlignCenter, x_title);
    p.save();
    p.translate(rect.left() + 12, plot.center().y());
    p.rotate(-90);
    p.drawText(QRect(-plot.height() / 2, -10, plot.height(), 18), Qt::AlignCenter, data.y_title);
    p.restore();

    for (std::size_t si = 0; si < data.series.size(); ++si) {
        const auto& s = data.series[si];
        const QColor c = seriesColor(static_cast<int>(si));
        // CI band between the points that have one.
        QPolygonF upper;
        QPolygonF lower;
        for (const auto& pt : s.points) {
            if (pt.low && pt.high) {
                upper << QPointF(xpos(pt.x), ypos(*pt.high));
                lower.prepend(QPointF(xpos(pt.x), ypos(*pt.low)));
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
        QPainterPath line;
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const QPointF pt(xpos(s.points[i].x), ypos(s.points[i].y));
            if (i == 0)
                line.moveTo(pt);
            else
                line.lineTo(pt);
        }
        p.setPen(QPen(c, 2));
        p.drawPath(line);
        for (const auto& pt : s.points) {
            const double x = xpos(pt.x);
            if (pt.low && pt.high) {
                p.setPen(QPen(c, 1.2));
                p.drawLine(QPointF(x, ypos(*pt.low)), QPointF(x, ypos(*pt.high)));
                p.drawLine(QPointF(x - 4, ypos(*pt.low)), QPointF(x + 4, ypos(*pt.low)));
                p.drawLine(QPointF(x - 4, ypos(*pt.high)), QPointF(x + 4, ypos(*pt.high)));
            }
            if (pt.warning.isEmpty()) {
                p.setPen(QPen(bg, 1.5));
                p.setBrush(c);
                p.drawEllipse(QPointF(x, ypos(pt.y)), 4, 4);
            } else {
                // Measured on a busy machine: hollow, amber-ringed, larger.
                p.setPen(QPen(kWarningColor, 2.5));
                p.setBrush(bg);
                p.drawEllipse(QPointF(x, ypos(pt.y)), 5.5, 5.5);
            }
            if (hits) {
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
                    text += QStringLiteral("<br><span style=\"color:#e09a20\">⚠ %1</span>")
                                .arg(pt.warning.toHtmlEscaped().replace(QLatin1Char('\n'),
                                                                        QStringLiteral("<br>⚠ ")));
                hits->push_back({QPointF(x, ypos(pt.y)), text});
            }
            p.setBrush(Qt::NoBrush);
        }
        // Legend on the right.
        const int ly = plot.top() + 6 + static_cast<int>(si) * 20;
        p.setPen(QPen(c, 3));
        p.drawLine(plot.right() + 16, ly + 8, plot.right() + 36, ly + 8);
        p.setPen(fg);
        p.drawText(QRect(plot.right() + 42, ly, 115, 16), Qt::AlignLeft | Qt::AlignVCenter,
                   s.label);
    }
    if (chartHasWarnings(data)) {
        const int ly = plot.top() + 6 + static_cast<int>(data.series.size()) * 20 + 6;
        p.setPen(QPen(kWarningColor, 2.5));
        p.setBrush(bg);
        p.drawEllipse(QPointF(plot.right() + 26, ly + 8), 5.5, 5.5);
        p.setPen(fg);
        p.drawText(QRect(plot.right() + 42, ly, 115, 16), Qt::AlignLeft | Qt::AlignVCenter,
                   QObject::tr("busy machine"));
    }
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
