#pragma once

#include <QColor>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

#include "gui/app/Theme.hpp"

class QPainter;

namespace trainscope::gui {

struct ChartPoint {
    int x = 0;  // index into ChartData::x_labels
    double y = 0.0;
    std::optional<double> low;  // confidence interval, if known
    std::optional<double> high;
    // Why the point's timings may not measure the workload alone (a busy machine, a
    // throttling GPU); "" for a clean point. Drawn hollow in amber, said in the tooltip.
    QString warning;
};

struct ChartSeries {
    QString label;
    std::vector<ChartPoint> points;  // sorted by x
};

// A line chart, one line per group, with confidence intervals as error bars and a band.
// x positions are categories (x_labels in order, evenly spaced) or, when x_values is set,
// numbers placed at their value: on a log2 scale when log_x (batch sizes 32..1024 spread
// evenly by doubling, as users read scaling plots), linearly otherwise.
struct ChartData {
    QString title;
    QString x_title;
    QString y_title;
    QStringList x_labels;
    std::vector<double> x_values;  // empty, or one per x_label, ascending
    bool log_x = false;
    // Which interval the error bars are ("95 % CI of the median (order statistics)");
    // shown under the title and in the tooltips; "" when no point has one.
    QString interval_name;
    std::vector<ChartSeries> series;
};

// Where x position `index` sits along the axis, from 0 (first) to 1 (last); 0.5 when
// there is one position.
[[nodiscard]] double chartXFraction(const ChartData& chart, int index);

// Whether any point carries a measurement warning (the legend then explains the mark).
[[nodiscard]] bool chartHasWarnings(const ChartData& chart);

class LineChart : public QWidget {
    Q_OBJECT
  public:
    explicit LineChart(QWidget* parent = nullptr);
    void setData(ChartData chart);
    [[nodiscard]] const ChartData& chartData() const { return data_; }
    void setDark(bool dark);
    // A painted point, for tooltips.
    struct PointHit {
        QPointF pos;
        QString text;
    };
    static void paint(QPainter& painter, const QRect& rect, const ChartData& chart, bool dark,
                      std::vector<PointHit>* hits = nullptr);
    // The tooltip of the point within 8 px of pos ("" when none).
    [[nodiscard]] QString pointTextAt(QPointF pos) const;
    [[nodiscard]] const std::vector<PointHit>& pointHits() const { return hits_; }
    [[nodiscard]] QImage renderImage(QSize size) const;

  protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

  private:
    ChartData data_;
    bool dark_ = true;
    std::vector<PointHit> hits_;
};

}  // namespace trainscope::gui
