#pragma once

#include <QPointF>
#include <QRectF>
#include <QWidget>
#include <vector>

#include "reports/roofline/Roofline.hpp"

namespace trainscope::gui {

// Where the roofline's log-log axes put a point: intensity (FLOP/byte) across, achieved
// FLOP/s up, each over whole decades that hold every op and both roofs. A value type so
// that painting and clicking agree, and tests can ask where a point went.
class RooflineAxes {
  public:
    RooflineAxes() = default;
    RooflineAxes(const std::vector<reports::OpRooflineRow>& ops, const reports::Roofs& roofs,
                 QRectF plot);
    [[nodiscard]] QPointF map(double intensity, double flops_per_s) const;
    [[nodiscard]] const QRectF& plot() const { return plot_; }
    [[nodiscard]] int xFirstDecade() const { return x_lo_; }
    [[nodiscard]] int xLastDecade() const { return x_hi_; }
    [[nodiscard]] int yFirstDecade() const { return y_lo_; }
    [[nodiscard]] int yLastDecade() const { return y_hi_; }

  private:
    QRectF plot_;
    int x_lo_ = 0, x_hi_ = 1, y_lo_ = 0, y_hi_ = 1;
};

// The Roofline tab: a run's ops (reports::op_roofline) as circles sized by their share
// of device time and coloured by category, under the memory and compute roofs of the
// run's device. Clicking a circle emits opClicked with the op's name (MainWindow then
// selects the op's instances on the timeline).
class RooflineView : public QWidget {
    Q_OBJECT
  public:
    explicit RooflineView(QWidget* parent = nullptr);

    void setData(std::vector<reports::OpRooflineRow> ops, reports::Roofs roofs);
    [[nodiscard]] const std::vector<reports::OpRooflineRow>& ops() const { return ops_; }
    // The op whose circle holds `pos` (the smallest, where circles overlap); -1 none.
    [[nodiscard]] int opAt(QPointF pos) const;
    // Centre of op i's circle in widget coordinates (tests click there).
    [[nodiscard]] QPointF centreOf(int i) const;

  signals:
    void opClicked(const QString& name);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;  // a point's tooltip: the ops.csv figures

  private:
    [[nodiscard]] RooflineAxes axes() const;
    [[nodiscard]] double radiusOf(int i) const;
    [[nodiscard]] bool placed(int i) const;

    std::vector<reports::OpRooflineRow> ops_;
    reports::Roofs roofs_;
    double total_ns_ = 0.0;
};

}  // namespace trainscope::gui
