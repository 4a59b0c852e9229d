#pragma once

#include <QColor>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

class QPainter;

namespace trainscope::gui {

struct ChartPoint {
    int x = 0;  // index into ChartData::x_labels
    double y = 0.0;
    std::optional<double> low;  // confidence interval, if known
    std::optional<double> high;
};

struct ChartSeries {
    QString label;
    std::vector<ChartPoint> points;  // sorted by x
};

// A line chart over categorical x positions (axis values sorted), one line per group,
// with confidence intervals as error bars and a band.
struct ChartData {
    QString title;
    QString x_title;
    QString y_title;
    QStringList x_labels;
    std::vector<ChartSeries> series;
};

QColor seriesColor(int index);

class LineChart : public QWidget {
    Q_OBJECT
  public:
    explicit LineChart(QWidget* parent = nullptr);
    void setData(ChartData chart);
    [[nodiscard]] const ChartData& chartData() const { return data_; }
    void setDark(bool dark);
    static void paint(QPainter& painter, const QRect& rect, const ChartData& chart, bool dark);
    [[nodiscard]] QImage renderImage(QSize size) const;

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    ChartData data_;
    bool dark_ = true;
};

}  // namespace trainscope::gui
