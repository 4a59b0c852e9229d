#include "gui/roofline/RooflineView.hpp"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <utility>

#include "gui/app/Theme.hpp"
#include "gui/timeline/KernelCategory.hpp"
#include "reports/roofline/RooflineExtent.hpp"

namespace trainscope::gui {

namespace {

QString decade_label(int d) {
    return QStringLiteral("1e%1").arg(d);
}

}  // namespace

RooflineAxes::RooflineAxes(const std::vector<reports::OpRooflineRow>& ops,
                           const reports::Roofs& roofs, QRectF plot)
    : plot_(plot) {
    const reports::RooflineExtent extent = reports::roofline_extent(ops, roofs);
    x_lo_ = extent.x_lo;
    x_hi_ = extent.x_hi;
    y_lo_ = extent.y_lo;
    y_hi_ = extent.y_hi;
}

QPointF RooflineAxes::map(double intensity, double flops_per_s) const {
    const double fx = (std::log10(intensity) - x_lo_) / static_cast<double>(x_hi_ - x_lo_);
    const double fy = (std::log10(flops_per_s) - y_lo_) / static_cast<double>(y_hi_ - y_lo_);
    return {plot_.left() + fx * plot_.width(), plot_.bottom() - fy * plot_.height()};
}

RooflineView::RooflineView(QWidget* parent) : QWidget(parent) {
    setMinimumSize(480, 320);
    setMouseTracking(false);
}

void RooflineView::setData(std::vector<reports::OpRooflineRow> ops, reports::Roofs roofs) {
    ops_ = std::move(ops);
    roofs_ = roofs;
    total_ns_ = 0.0;
    for (const auto& op : ops_)
        total_ns_ += reports::on_roofline_chart(op) ? static_cast<double>(op.device_ns) : 0.0;
    update();
}

RooflineAxes RooflineView::axes() const {
    const QRectF plot(70.0, 30.0, std::max(50.0, width() - 70.0 - 170.0),
                      std::max(50.0, height() - 30.0 - 50.0));
    return RooflineAxes(ops_, roofs_, plot);
}

bool RooflineView::placed(int i) const {
    return i >= 0 && static_cast<std::size_t>(i) < ops_.size() &&
           reports::on_roofline_chart(ops_[static_cast<std::size_t>(i)]);
}

double RooflineView::radiusOf(int i) const {
    const double share =
        total_ns_ > 0.0
            ? static_cast<double>(ops_[static_cast<std::size_t>(i)].device_ns) / total_ns_
            : 0.0;
    return 4.0 + 22.0 * std::sqrt(share);
}

QPointF RooflineView::centreOf(int i) const {
    if (!placed(i))
        return {-1.0, -1.0};
    const auto& op = ops_[static_cast<std::size_t>(i)];
    return axes().map(op.intensity, op.achieved_flops_per_s);
}

int RooflineView::opAt(QPointF pos) const {
    int best = -1;
    double best_radius = 0.0;
    for (int i = 0; i < static_cast<int>(ops_.size()); ++i) {
        if (!placed(i))
            continue;
        const QPointF d = pos - centreOf(i);
        const double r = radiusOf(i);
        if (d.x() * d.x() + d.y() * d.y() <= r * r && (best < 0 || r < best_radius)) {
            best = i;
            best_radius = r;
        }
    }
    return best;
}

void RooflineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const RooflineAxes a = axes();
    const QRectF plot = a.plot();
    const QColor text = palette().color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(40);
    if (ops_.empty()) {
        p.setPen(text);
        p.drawText(rect(), Qt::AlignCenter,
                   tr("No op of this run carries FLOPs and bytes (a trace of trainscope's "
                      "engine records them)."));
        return;
    }
    for (int d = a.xFirstDecade(); d <= a.xLastDecade(); ++d) {
        const double x = a.map(std::pow(10.0, d), std::pow(10.0, a.yFirstDecade())).x();
        p.setPen(grid);
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.setPen(text);
        p.drawText(QRectF(x - 30, plot.bottom() + 4, 60, 16), Qt::AlignCenter, decade_label(d));
    }
    for (int d = a.yFirstDecade(); d <= a.yLastDecade(); ++d) {
        const double y = a.map(std::pow(10.0, a.xFirstDecade()), std::pow(10.0, d)).y();
        p.setPen(grid);
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(text);
        p.drawText(QRectF(0, y - 8, plot.left() - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                   decade_label(d));
    }
    p.drawText(QRectF(plot.left(), plot.bottom() + 22, plot.width(), 18), Qt::AlignCenter,
               tr("arithmetic intensity (FLOP/byte)"));
    p.drawText(QRectF(plot.left(), 4, plot.width(), 20), Qt::AlignLeft, tr("achieved FLOP/s"));
    if (roofs_.known()) {
        const double x_min = std::pow(10.0, a.xFirstDecade());
        const double x_max = std::pow(10.0, a.xLastDecade());
        QPainterPath roof;
        roof.moveTo(a.map(x_min, roofs_.attainable_flops_per_s(x_min)));
        roof.lineTo(a.map(roofs_.ridge_intensity(), roofs_.peak_flops_per_s));
        roof.lineTo(a.map(x_max, roofs_.peak_flops_per_s));
        p.setPen(QPen(text, 2.0));
        p.setBrush(Qt::NoBrush);
        p.drawPath(roof);
    }
    std::vector<Category> shown;
    for (int i = 0; i < static_cast<int>(ops_.size()); ++i) {
        if (!placed(i))
            continue;
        const auto& op = ops_[static_cast<std::size_t>(i)];
        const Category category = classify_kernel_name(op.name);
        if (std::find(shown.begin(), shown.end(), category) == shown.end())
            shown.push_back(category);
        QColor fill = category_color(category);
        fill.setAlpha(190);
        p.setPen(QPen(text, 0.5));
        p.setBrush(fill);
        const double r = radiusOf(i);
        p.drawEllipse(centreOf(i), r, r);
    }
    double ly = plot.top() + 8;
    for (const Category category : shown) {
        p.setPen(Qt::NoPen);
        p.setBrush(category_color(category));
        p.drawEllipse(QPointF(plot.right() + 24, ly), 6, 6);
        p.setPen(text);
        p.drawText(QPointF(plot.right() + 36, ly + 5),
                   QString::fromLatin1(category_name(category).data(),
                                       static_cast<int>(category_name(category).size())));
        ly += 20;
    }
}

bool RooflineView::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const int i = opAt(help->pos());
    if (i < 0) {
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    const auto& op = ops_[static_cast<std::size_t>(i)];
    QToolTip::showText(
        help->globalPos(),
        tr("%1 (%2)\n%3 calls, %4 ms\n%5 FLOP/byte\n%6 GFLOP/s, %7 GB/s\n%8-bound, %9 % of "
           "its roof\nclick: select its instances on the timeline")
            .arg(QString::fromStdString(op.name), QString::fromStdString(op.category))
            .arg(op.count)
            .arg(static_cast<double>(op.device_ns) * 1e-6, 0, 'g', 4)
            .arg(op.intensity, 0, 'g', 3)
            .arg(op.achieved_flops_per_s * 1e-9, 0, 'g', 4)
            .arg(op.achieved_bytes_per_s * 1e-9, 0, 'g', 4)
            .arg(QString::fromLatin1(reports::to_string(op.bound).data(),
                                     static_cast<int>(reports::to_string(op.bound).size())))
            .arg(op.roof_pct, 0, 'f', 1),
        this);
    return true;
}

void RooflineView::mousePressEvent(QMouseEvent* event) {
    const int i = opAt(event->position());
    if (i >= 0) {
        emit opClicked(QString::fromStdString(ops_[static_cast<std::size_t>(i)].name));
        return;
    }
    QWidget::mousePressEvent(event);
}

}  // namespace trainscope::gui
