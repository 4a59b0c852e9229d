// The Runs tab's chart: the data built from stored runs (intervals, grouping, numeric
// axes, busy-machine marks) and the LineChart that draws it (tooltips, amber rings).
#include <QTemporaryDir>
#include <QTest>

#include "gui/charts/LineChart.hpp"
#include "gui/runs/MetricChartData.hpp"
#include "tests/gui/GuiTestUtil.hpp"
#include "tests/gui/SampleRuns.hpp"

using namespace trainscope;
using namespace trainscope::gui;

class TestMetricChart : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::vector<reports::RunRecord> runs_;

  private slots:
    void initTestCase() { testing::loadSampleRuns(dir_, runs_); }

    // The chart's error bars belong to the statistic plotted: rows name the metric and
    // the interval expected from a run storing the mean's and the median's intervals.
    void chartIntervalBelongsToTheStatistic_data() {
        QTest::addColumn<QString>("metric");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<QString>("named");
        QTest::newRow("median: its order-statistic interval")
            << "step_ms_median" << 9.5 << 10.4 << "median";
        QTest::newRow("mean: Student t") << "step_ms_mean" << 11.0 << 14.0 << "mean";
        QTest::newRow("images/s: from the mean step time")
            << "images_per_s" << 100000.0 / 14.0 << 100000.0 / 11.0 << "mean step time";
    }

    void chartIntervalBelongsToTheStatistic() {
        QFETCH(QString, metric);
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(QString, named);
        reports::RunRecord r;
        r.id = 1;
        r.axes.batch = 100;
        r.metrics = {{"images_per_s", 8000.0, "images/s"}, {"step_ms_median", 10.0, "ms"},
                     {"step_ms_median_ci_low", 9.5, "ms"}, {"step_ms_median_ci_high", 10.4, "ms"},
                     {"step_ms_mean", 12.5, "ms"},         {"step_ms_ci_low", 11.0, "ms"},
                     {"step_ms_ci_high", 14.0, "ms"}};
        const ChartData chart = buildMetricChart({r}, metric.toStdString(), "batch", "");
        QCOMPARE(chart.series.size(), std::size_t(1));
        const ChartPoint& p = chart.series[0].points.at(0);
        QVERIFY(p.low && p.high);
        QCOMPARE(*p.low, low);
        QCOMPARE(*p.high, high);
        QVERIFY2(chart.interval_name.contains(named), qPrintable(chart.interval_name));
        // The chart says which interval it draws, on the chart and in the tooltip.
        LineChart view;
        view.resize(800, 400);
        view.setData(chart);
        view.grab();
        QVERIFY(view.pointHits().front().text.contains(chart.interval_name.toHtmlEscaped()));
    }

    void medianWithoutItsOwnIntervalGetsNoBars() {
        // A run recorded before the median's interval was stored: the mean's interval
        // is not drawn around the median.
        reports::RunRecord r;
        r.axes.batch = 100;
        r.metrics = {{"step_ms_median", 10.0, "ms"},
                     {"step_ms_ci_low", 8.0, "ms"},
                     {"step_ms_ci_high", 12.5, "ms"}};
        const ChartData chart = buildMetricChart({r}, "step_ms_median", "batch", "");
        QVERIFY(!chart.series.at(0).points.at(0).low);
        QVERIFY(chart.interval_name.isEmpty());
    }

    void chartMarksRunsMeasuredOnABusyMachine() {
        reports::RunRecord clean;
        clean.id = 1;
        clean.axes.batch = 32;
        clean.metrics = {{"images_per_s", 1000.0, "images/s"}, {"host_other_cpu_pct", 1.0, "%"}};
        reports::RunRecord busy = clean;
        busy.id = 2;
        busy.axes.batch = 64;
        busy.metrics[1].value = 46.5;
        const ChartData chart = buildMetricChart({clean, busy}, "images_per_s", "batch", "");
        QVERIFY(chart.series.at(0).points.at(0).warning.isEmpty());
        QVERIFY(chart.series.at(0).points.at(1).warning.contains(QLatin1String("46.5 %")));
        QVERIFY(chartHasWarnings(chart));
        LineChart view;
        view.resize(800, 400);
        view.setData(chart);
        const QImage image = view.grab().toImage();
        QCOMPARE(view.pointHits().size(), std::size_t(2));
        QVERIFY(!view.pointHits()[0].text.contains(QStringLiteral("⚠")));
        QVERIFY(view.pointHits()[1].text.contains(QStringLiteral("⚠")));
        // Hollow amber ring: amber on the ring, the background in the middle.
        const QPointF at = view.pointHits()[1].pos;
        const QColor centre = image.pixelColor(at.toPoint());
        QCOMPARE(centre, QColor(0x1e, 0x20, 0x24));
        bool amber = false;
        for (int dx = -7; dx <= 7; ++dx) {
            const QColor c = image.pixelColor(at.toPoint() + QPoint(dx, 0));
            amber = amber ||
                    (c.red() > 0xc0 && c.green() > 0x80 && c.green() < 0xb0 && c.blue() < 0x50);
        }
        QVERIFY(amber);
        const QColor clean_centre = image.pixelColor(view.pointHits()[0].pos.toPoint());
        QCOMPARE(clean_centre, seriesColor(0));
    }

    void chartGroupsByAxis() {
        const ChartData chart = buildMetricChart(runs_, "images_per_s", "batch", "precision");
        QCOMPARE(chart.x_labels, QStringList({"32", "64", "128", "256"}));
        QCOMPARE(chart.series.size(), std::size_t(4));
        for (const auto& s : chart.series) {
            for (const auto& p : s.points) {
                QVERIFY(p.low && p.high);
                QVERIFY(*p.low <= p.y && p.y <= *p.high);
            }
        }
        // fp32 at batch 256 failed: that line has 3 points.
        const auto fp32 = std::find_if(
            chart.series.begin(), chart.series.end(),
            [](const ChartSeries& s) { return s.label.endsWith(QLatin1String("fp32")); });
        QVERIFY(fp32 != chart.series.end());
        QCOMPARE(fp32->points.size(), std::size_t(3));
    }

    void chartPlacesNumericAxesByValue() {
        // Batch sizes 32..256 double each step: a log2 axis spaces them evenly.
        const ChartData batches = buildMetricChart(runs_, "images_per_s", "batch", "precision");
        QCOMPARE(batches.x_values, std::vector<double>({32, 64, 128, 256}));
        QVERIFY(batches.log_x);
        QCOMPARE(chartXFraction(batches, 0), 0.0);
        QCOMPARE(chartXFraction(batches, 1), 1.0 / 3.0);
        QCOMPARE(chartXFraction(batches, 3), 1.0);
        // A narrow numeric range is linear: 1, 2 and 4 threads sit at 0, 1/3, 1.
        ChartData threads;
        threads.x_labels = {"1", "2", "4"};
        threads.x_values = {1, 2, 4};
        QCOMPARE(chartXFraction(threads, 1), 1.0 / 3.0);
        // Categories stay evenly spaced.
        ChartData precisions;
        precisions.x_labels = {"bf16", "fp16", "fp32"};
        QCOMPARE(chartXFraction(precisions, 1), 0.5);
        QCOMPARE(chartXFraction(precisions, 2), 1.0);
        const ChartData by_precision =
            buildMetricChart(runs_, "images_per_s", "precision", "batch");
        QVERIFY(by_precision.x_values.empty());
        QVERIFY(!by_precision.log_x);
    }

    void chartPointsHaveTooltips() {
        LineChart chart;
        chart.resize(900, 500);
        chart.setData(buildMetricChart(runs_, "images_per_s", "batch", "precision"));
        const QImage image = chart.grab().toImage();  // paints, records the points
        QVERIFY(testing::distinctColours(image) > 20);
        QCOMPARE(chart.pointHits().size(), std::size_t(15));  // 16 runs, one failed
        const auto& hit = chart.pointHits().front();
        const QString text = chart.pointTextAt(hit.pos + QPointF(3, -3));
        QVERIFY2(
            text.contains(QLatin1String("batch = 32")) && text.contains(QLatin1String("95 % CI")),
            qPrintable(text));
        QVERIFY(chart.pointTextAt(QPointF(-100, -100)).isEmpty());
    }
};

QTEST_MAIN(TestMetricChart)
#include "tst_metric_chart.moc"
