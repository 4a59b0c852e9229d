// Item models: QAbstractItemModelTester, roles, failed rows, proxies, statistics,
// confidence intervals and the compare verdict.
#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>

#include "gui/app/CsvExport.hpp"
#include "gui/charts/LineChart.hpp"
#include "gui/common/ExportRole.hpp"
#include "gui/compare/CompareModels.hpp"
#include "gui/compare/TraceDiffModel.hpp"
#include "gui/kernels/KernelStats.hpp"
#include "gui/kernels/KernelStatsModel.hpp"
#include "gui/runs/MetricChartData.hpp"
#include "gui/runs/RunsTableModel.hpp"
#include "gui/timeline/KernelCategory.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
#include "tests/gui/GuiTestUtil.hpp"
#include "tests/gui/TraceDbGenerator.hpp"

using namespace trainscope;
using namespace trainscope::gui;

class TestModels : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString db_;
    std::vector<reports::RunRecord> runs_;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath(QStringLiteral("results.db"));
        testing::writeDatabase(db_.toStdString(), {3000, 500, 1});
        reports::ResultsDatabase db(db_.toStdString(), reports::OpenMode::ReadOnly);
        runs_ = reports::load_runs(db, {}, {});
        QCOMPARE(runs_.size(), std::size_t(16));
    }

    void runsModelPassesTheTester() {
        RunsTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns(runs_);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(RunsTableModel::SortRole);
        QAbstractItemModelTester proxy_tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(3, Qt::DescendingOrder);
        proxy.sort(2, Qt::AscendingOrder);
        model.setRuns({});
        model.setRuns(runs_);
        QCOMPARE(model.rowCount(), 16);
    }

    void runsModelShowsAxesMetricsAndFailures() {
        RunsTableModel model;
        model.setRuns(runs_);
        const auto& axes = model.axisColumns();
        QVERIFY(std::find(axes.begin(), axes.end(), "precision") != axes.end());
        QVERIFY(std::find(axes.begin(), axes.end(), "batch") != axes.end());
        const auto& metrics = model.metricColumns();
        QVERIFY(std::find(metrics.begin(), metrics.end(), "images_per_s") != metrics.end());
        int failed = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            const QModelIndex i = model.index(r, 1);
            if (i.data(RunsTableModel::StatusRole).toString() != QLatin1String("failed"))
                continue;
            ++failed;
            QVERIFY(i.data(RunsTableModel::ErrorRole)
                        .toString()
                        .contains(QLatin1String("out of memory")));
            QVERIFY(i.data(Qt::ToolTipRole).toString().contains(QLatin1String("out of memory")));
            QCOMPARE(i.data(Qt::DisplayRole).toString(), QStringLiteral("failed"));
            const QModelIndex error = model.index(r, model.columnCount() - 1);
            QCOMPARE(model.headerData(model.columnCount() - 1, Qt::Horizontal).toString(),
                     QStringLiteral("error"));
            QVERIFY(error.data().toString().startsWith(QLatin1String("CUDA out of memory")));
            QCOMPARE(i.data(Qt::ForegroundRole).value<QBrush>().color(), QColor(0xe0, 0x40, 0x40));
        }
        QCOMPARE(failed, 1);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setFilterKeyColumn(-1);
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        proxy.setFilterFixedString(QStringLiteral("FAILED"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setFilterFixedString(QStringLiteral("bf16"));
        QCOMPARE(proxy.rowCount(), 4);
        // Numeric sort on the batch column: 32 < 64 < 128 < 256, not text order.
        proxy.setFilterFixedString(QString());
        proxy.setSortRole(RunsTableModel::SortRole);
        int batch_col = -1;
        for (int c = 0; c < model.columnCount(); ++c) {
            if (model.headerData(c, Qt::Horizontal).toString() == QLatin1String("batch"))
                batch_col = c;
        }
        QVERIFY(batch_col >= 0);
        proxy.sort(batch_col, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, batch_col).data().toString(), QStringLiteral("32"));
        QCOMPARE(proxy.index(15, batch_col).data().toString(), QStringLiteral("256"));
    }

    void kernelStatsAndModel() {
        profiler::Trace t;
        t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 1, "s7"});
        testing::kernelAt(t, 0, 0, 100, "ampere_sgemm_128x64_tn");
        testing::kernelAt(t, 0, 200, 500, "ampere_sgemm_128x64_tn");
        testing::kernelAt(t, 0, 600, 700, "relu_kernel");
        const auto d = TimelineData::build(std::move(t));
        const auto stats = computeKernelStats(*d);
        QCOMPARE(stats.size(), std::size_t(2));
        QCOMPARE(stats[0].name, QStringLiteral("ampere_sgemm_128x64_tn"));
        QCOMPARE(stats[0].count, std::int64_t(2));
        QCOMPARE(stats[0].total_ns, std::int64_t(400));
        QCOMPARE(stats[0].min_ns, std::int64_t(100));
        QCOMPARE(stats[0].max_ns, std::int64_t(300));
        QCOMPARE(stats[0].mean_ns(), 200.0);
        QCOMPARE(stats[0].share, 0.8);
        QCOMPARE(stats[0].category, Category::Gemm);
        QCOMPARE(d->activity(stats[0].longest).start_ns, std::int64_t(200));
        QCOMPARE(stats[1].category, Category::Elementwise);
        // A range selection: only the work that starts inside it.
        const auto range = computeKernelStats(*d, 150, 650);
        QCOMPARE(range.size(), std::size_t(2));
        QCOMPARE(range[0].count, std::int64_t(1));
        QCOMPARE(range[0].total_ns, std::int64_t(300));
        QCOMPARE(range[1].total_ns, std::int64_t(100));
        QCOMPARE(range[0].share, 0.75);
        // Several runs together: counts and times add, min/max span, longest only from the first.
        KernelStat other;
        other.name = QStringLiteral("relu_kernel");
        other.count = 3;
        other.total_ns = 900;
        other.min_ns = 50;
        other.max_ns = 500;
        other.longest = 7;
        KernelStat only_other = other;
        only_other.name = QStringLiteral("new_kernel");
        const std::vector<KernelStat> second = {other, only_other};
        const auto merged = mergeKernelStats({&stats, &second});
        QCOMPARE(merged.size(), std::size_t(3));
        const auto relu = std::find_if(merged.begin(), merged.end(), [](const KernelStat& k) {
            return k.name == QLatin1String("relu_kernel");
        });
        QCOMPARE(relu->count, std::int64_t(4));
        QCOMPARE(relu->total_ns, std::int64_t(1000));
        QCOMPARE(relu->min_ns, std::int64_t(50));
        QCOMPARE(relu->max_ns, std::int64_t(500));
        QCOMPARE(relu->longest, stats[1].longest);
        const auto fresh = std::find_if(merged.begin(), merged.end(), [](const KernelStat& k) {
            return k.name == QLatin1String("new_kernel");
        });
        QCOMPARE(fresh->longest, kNoActivity);
        QCOMPARE(merged[0].total_ns, std::int64_t(1000));
        QCOMPARE(merged[0].share, 1000.0 / 2300.0);

        KernelStatsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setStats(stats);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(KernelStatsModel::SortRole);
        QAbstractItemModelTester proxy_tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(KernelStatsModel::Total, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, KernelStatsModel::Name).data().toString(),
                 QStringLiteral("relu_kernel"));
        QCOMPARE(proxy.index(1, KernelStatsModel::Share).data().toString(),
                 QStringLiteral("80.0 %"));
        QCOMPARE(proxy.index(1, 0).data(KernelStatsModel::LongestActivityRole).toUInt(),
                 stats[0].longest);
    }

    void classifierByName_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("category");
        QTest::newRow("cudnn fprop")
            << "sm80_xmma_fprop_implicit_gemm_tf32f32" << int(Category::Conv);
        QTest::newRow("wgrad") << "sm80_xmma_wgrad_implicit_gemm" << int(Category::Conv);
        QTest::newRow("sgemm") << "ampere_sgemm_128x64_tn" << int(Category::Gemm);
        QTest::newRow("relu") << "vectorized_elementwise_kernel<relu>"
                              << int(Category::Elementwise);
        QTest::newRow("reduce") << "at::native::reduce_kernel<512>" << int(Category::Reduction);
        QTest::newRow("adam") << "multi_tensor_apply_kernel<FusedAdamMathFunctor>"
                              << int(Category::Optimizer);
        QTest::newRow("bn") << "cudnn::bn_fw_tr_1C11_kernel_NCHW" << int(Category::Normalization);
        QTest::newRow("unknown") << "my_custom_kernel" << int(Category::OtherKernel);
    }
    void classifierByName() {
        QFETCH(QString, name);
        QFETCH(int, category);
        QCOMPARE(int(classify_kernel_name(name.toStdString())), category);
    }

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

    void runsTableNamesMetricsInWordsWithUnits() {
        RunsTableModel model;
        model.setRuns(runs_);
        QStringList headers;
        for (int c = 0; c < model.columnCount(); ++c)
            headers << model.headerData(c, Qt::Horizontal).toString();
        QVERIFY2(headers.contains(QStringLiteral("Step time, median (ms)")),
                 qPrintable(headers.join(QLatin1Char('|'))));
        QVERIFY(headers.contains(QStringLiteral("Throughput (images/s)")));
        QVERIFY(headers.contains(QStringLiteral("Peak tensor memory (bytes)")));
        // Important columns first: throughput, then the median step time.
        const auto& metrics = model.metricColumns();
        QCOMPARE(metrics.at(0), std::string("images_per_s"));
        QCOMPARE(metrics.at(1), std::string("step_ms_median"));
        const int first_metric = static_cast<int>(headers.indexOf("Throughput (images/s)"));
        QCOMPARE(model.headerData(first_metric, Qt::Horizontal, RunsTableModel::MetricNameRole)
                     .toString(),
                 QStringLiteral("images_per_s"));
        QCOMPARE(model.headerData(first_metric, Qt::Horizontal, RunsTableModel::ColumnKeyRole)
                     .toString(),
                 QStringLiteral("metric:images_per_s"));
        QVERIFY(model.headerData(first_metric, Qt::Horizontal, RunsTableModel::DefaultShownRole)
                    .toBool());
        const int ci = static_cast<int>(headers.indexOf("Step time, mean: 95 % CI low (ms)"));
        QVERIFY(ci > first_metric);
        QVERIFY(!model.headerData(ci, Qt::Horizontal, RunsTableModel::DefaultShownRole).toBool());
        QVERIFY(model.headerData(first_metric, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("Higher is better")));
    }

    void csvCellsArePlainNumbers() {
        reports::RunRecord r;
        r.id = 7;
        r.metrics = {{"images_per_s", 14600.123456789, "images/s"},
                     {"peak_mem_bytes", 1234567890.0, "bytes"}};
        RunsTableModel model;
        model.setRuns({r});
        // People see grouped, rounded numbers; the CSV gets every digit, no separator.
        QCOMPARE(model.index(0, 2).data().toString(), QStringLiteral("14,600"));
        const QString csv = toCsv(model);
        const QStringList lines = csv.split(QStringLiteral("\r\n"));
        QCOMPARE(lines.at(0),
                 QStringLiteral("run,status,Throughput (images/s),Peak tensor memory (bytes)"));
        QCOMPARE(lines.at(1), QStringLiteral("7,ok,14600.123456789,1234567890"));
        // Every metric cell of a real database reads back as a number.
        RunsTableModel all;
        all.setRuns(runs_);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&all);
        const QStringList rows = toCsv(proxy).split(QStringLiteral("\r\n"));
        const QStringList header = rows.at(0).split(QLatin1Char(','));
        const int images = static_cast<int>(header.indexOf("Throughput (images/s)"));
        QVERIFY(images > 0);
        for (int i = 1; i < rows.size(); ++i) {
            if (rows[i].isEmpty() || rows[i].contains(QLatin1String("failed")))
                continue;
            bool ok = false;
            rows[i].split(QLatin1Char(',')).at(images).toDouble(&ok);
            QVERIFY2(ok, qPrintable(rows[i]));
        }
    }

    void divergedLossShowsAsDivergedAfterAStoreRoundTrip() {
        // A NaN loss is stored as NULL and read back as NaN; the table says "diverged" in
        // its place, for people and in the CSV, and sorts it below every number.
        reports::RunRecord r;
        r.status = reports::RunStatus::Failed;
        r.error = "diverged: the loss is nan at step 1";
        r.metrics = {{"final_loss", std::nan(""), ""}, {"test_accuracy", 0.1, ""}};
        const QString path = dir_.filePath(QStringLiteral("diverged.db"));
        {
            reports::ResultsDatabase db(path.toStdString(), reports::OpenMode::CreateOrOpen);
            reports::RunWriter(db).write(r);
        }
        reports::ResultsDatabase db(path.toStdString(), reports::OpenMode::ReadOnly);
        const auto runs = reports::load_runs(db, {}, {});
        QCOMPARE(runs.size(), std::size_t(1));
        RunsTableModel model;
        model.setRuns(runs);
        int column = -1;
        for (int c = 0; c < model.columnCount(); ++c) {
            if (model.headerData(c, Qt::Horizontal, RunsTableModel::MetricNameRole).toString() ==
                QLatin1String("final_loss"))
                column = c;
        }
        QVERIFY(column >= 0);
        QCOMPARE(model.index(0, column).data().toString(), QStringLiteral("diverged"));
        QCOMPARE(model.index(0, column).data(kCsvValueRole).toString(), QStringLiteral("diverged"));
        QCOMPARE(model.index(0, column).data(RunsTableModel::SortRole).toDouble(),
                 std::numeric_limits<double>::lowest());
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

    void runsMeasuredUnderContentionAreAmberWithTheReason() {
        std::vector<reports::RunRecord> runs;
        reports::RunRecord clean;
        clean.id = 1;
        clean.status = reports::RunStatus::Ok;
        clean.metrics = {{"images_per_s", 1000.0, "images/s"},
                         {"host_other_cpu_pct", 2.0, "%"},
                         {"host_steal_pct", 0.0, "%"}};
        reports::RunRecord busy = clean;
        busy.id = 2;
        busy.metrics[1].value = 46.5;
        reports::RunRecord throttled = clean;
        throttled.id = 3;
        throttled.metrics.push_back({"throttled_sample_pct", 12.0, "%"});
        runs = {clean, busy, throttled};
        RunsTableModel model;
        model.setRuns(runs);
        const QModelIndex clean_status = model.index(0, 1);
        QVERIFY(!clean_status.data(Qt::ForegroundRole).isValid());
        QVERIFY(clean_status.data(Qt::ToolTipRole).toString().isEmpty());
        const QModelIndex busy_status = model.index(1, 1);
        QCOMPARE(busy_status.data(Qt::ForegroundRole).value<QBrush>().color(),
                 QColor(0xe0, 0x9a, 0x20));
        QVERIFY2(busy_status.data(Qt::ToolTipRole).toString().contains(QLatin1String("46.5 %")),
                 qPrintable(busy_status.data(Qt::ToolTipRole).toString()));
        QVERIFY(model.index(2, 1)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("throttled during 12.0 %")));
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

    // B against A, said with each metric's direction: more images/s is better, a longer
    // step is worse; the step-time verdict is the CLI's own function's.
    void compareSaysBetterOrWorseByDirection_data() {
        QTest::addColumn<double>("stepA");
        QTest::addColumn<double>("stepB");
        QTest::addColumn<int>("expected");
        QTest::newRow("B faster") << 10.0 << 8.0 << int(reports::Judgement::Better);
        QTest::newRow("B slower") << 8.0 << 10.0 << int(reports::Judgement::Worse);
        QTest::newRow("B within 2 %") << 10.0 << 10.05 << int(reports::Judgement::Same);
    }
    void compareSaysBetterOrWorseByDirection() {
        QFETCH(double, stepA);
        QFETCH(double, stepB);
        QFETCH(int, expected);
        auto run = [](std::int64_t id, double step_ms, double memory) {
            reports::RunRecord r;
            r.id = id;
            r.axes.batch = 64;
            r.metrics = {{"images_per_s", 64000.0 / step_ms, "images/s"},
                         {"step_ms_mean", step_ms, "ms"},
                         {"step_ms_stdev", step_ms * 0.002, "ms"},
                         {"step_count", 500, ""},
                         {"peak_mem_bytes", memory, "bytes"}};
            return r;
        };
        const reports::RunRecord a = run(1, stepA, 1000);
        const reports::RunRecord b = run(2, stepB, 2000);
        CompareMetricsModel model;
        model.setRuns(&a, &b);
        auto row_of = [&](const QString& tag) {
            for (int r = 0; r < model.rowCount(); ++r) {
                if (model.index(r, 0).data(CompareMetricsModel::TagRole).toString() == tag)
                    return r;
            }
            return -1;
        };
        const int images = row_of(QStringLiteral("images_per_s"));
        const int step = row_of(QStringLiteral("step_ms_mean"));
        const int memory = row_of(QStringLiteral("peak_mem_bytes"));
        QVERIFY(images >= 0 && step >= 0 && memory >= 0);
        QCOMPARE(model.index(images, 0).data(CompareMetricsModel::VerdictRole).toInt(), expected);
        QCOMPARE(model.index(step, 0).data(CompareMetricsModel::VerdictRole).toInt(), expected);
        QVERIFY(model.index(step, 0).data(CompareMetricsModel::TestedRole).toBool());
        const auto verdict = model.index(images, CompareMetricsModel::VerdictColumn).data();
        QCOMPARE(verdict.toString(),
                 QString::fromLatin1(
                     reports::to_string(static_cast<reports::Judgement>(expected)).data()));
        // The same function as `trainscope compare`.
        QCOMPARE(model.stepTimeComparison()->verdict, reports::compare_runs(a, b)->verdict);
        // More memory is worse, by direction alone, and the cell says so.
        QCOMPARE(model.index(memory, 0).data(CompareMetricsModel::VerdictRole).toInt(),
                 int(reports::Judgement::Worse));
        QVERIFY(!model.index(memory, 0).data(CompareMetricsModel::TestedRole).toBool());
        QVERIFY(model.index(memory, CompareMetricsModel::VerdictColumn)
                    .data()
                    .toString()
                    .contains(QLatin1String("direction only")));
    }

    void compareJudgesThroughputAtItsBatch() {
        // Batch 32 against batch 64: longer steps (worse) but more images/s (better).
        QCOMPARE(runs_[0].axes.batch.value_or(0), 32);
        QCOMPARE(runs_[1].axes.batch.value_or(0), 64);
        CompareMetricsModel model;
        model.setRuns(&runs_[0], &runs_[1]);
        QMap<QString, int> verdicts;
        for (int r = 0; r < model.rowCount(); ++r)
            verdicts[model.index(r, 0).data(CompareMetricsModel::TagRole).toString()] =
                model.index(r, 0).data(CompareMetricsModel::VerdictRole).toInt();
        QCOMPARE(verdicts.value("step_ms_mean"), int(reports::Judgement::Worse));
        QCOMPARE(verdicts.value("images_per_s"), int(reports::Judgement::Better));
        QVERIFY2(model.summary().contains(QLatin1String("Throughput")),
                 qPrintable(model.summary()));
    }

    void compareRefusesARunAgainstItself() {
        CompareMetricsModel model;
        model.setRuns(&runs_[0], &runs_[0]);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.stepTimeComparison());
    }

    void compareModelsPassTheTester() {
        CompareMetricsModel metrics;
        QAbstractItemModelTester t1(&metrics,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        metrics.setRuns(&runs_[0], &runs_[5]);
        QVERIFY(metrics.rowCount() >= 8);
        QCOMPARE(metrics.index(0, 0).data(CompareMetricsModel::TagRole).toString(),
                 QStringLiteral("images_per_s"));
        QCOMPARE(metrics.index(0, 0).data().toString(), QStringLiteral("Throughput (images/s)"));
        metrics.setRuns(nullptr, nullptr);
        QCOMPARE(metrics.rowCount(), 0);

        TraceDiffModel diff;
        QAbstractItemModelTester t2(&diff, QAbstractItemModelTester::FailureReportingMode::QtTest);
        profiler::TraceDiff d;
        profiler::TraceDiffRow gemm;
        gemm.name = "gemm";
        gemm.category = profiler::KernelCategory::Gemm;
        gemm.a = {2, 1000, 1000.0, 1000, 1000.0};  // a kernel: self time = total
        gemm.b = {2, 1500, 1500.0, 1500, 1500.0};
        profiler::TraceDiffRow conv;
        conv.name = "conv";
        conv.category = profiler::KernelCategory::Convolution;
        conv.b = {1, 300, 300.0, 300, 300.0};
        d.rows = {gemm, conv};
        diff.setDiff(d);
        QCOMPARE(diff.rowCount(), 2);
        // CSV: durations in ns, change in percent, plain numbers; units in the header.
        const QStringList csv = toCsv(diff).split(QStringLiteral("\r\n"));
        QVERIFY2(csv.at(0).contains(QLatin1String("total A (ns),total B (ns)")),
                 qPrintable(csv.at(0)));
        QVERIFY2(csv.contains(QStringLiteral(
                     "kernel,gemm,gemm,both,2,2,1000,1500,1000,1500,500,750,500,50")),
                 qPrintable(csv.join(QLatin1Char('|'))));
        for (int r = 0; r < 2; ++r) {
            if (diff.index(r, TraceDiffModel::Name).data().toString() == QLatin1String("gemm")) {
                QCOMPARE(diff.index(r, TraceDiffModel::Change)
                             .data(TraceDiffModel::SortRole)
                             .toLongLong(),
                         500);
                QCOMPARE(diff.index(r, TraceDiffModel::Relative).data().toString(),
                         QStringLiteral("+50.0 %"));
            } else {
                QCOMPARE(diff.index(r, TraceDiffModel::Relative).data().toString(),
                         QStringLiteral("new"));
                QCOMPARE(diff.index(r, TraceDiffModel::Status).data().toString(),
                         QStringLiteral("new"));
                // A lacks it: an empty mean, not "0 ns".
                QCOMPARE(diff.index(r, TraceDiffModel::MeanA).data().toString(), QString());
                QVERIFY(!diff.index(r, TraceDiffModel::MeanB).data().toString().isEmpty());
            }
        }
        // Ran in A for 0 ns: in both, so no "new" in the change column.
        profiler::TraceDiffRow idle;
        idle.name = "idle";
        idle.a = {1, 0, 0.0, 0, 0.0};
        idle.b = {1, 10, 10.0, 10, 10.0};
        d.rows = {idle};
        diff.setDiff(d);
        QCOMPARE(diff.index(0, TraceDiffModel::Status).data().toString(), QStringLiteral("both"));
        QCOMPARE(diff.index(0, TraceDiffModel::Relative).data().toString(), QString());
        // An op with ops nested inside: self and total apart, the change of self time.
        profiler::TraceDiffRow linear;
        linear.subject = profiler::DiffSubject::Operator;
        linear.name = "aten::linear";
        linear.a = {1, 1000, 1000.0, 200, 200.0};
        linear.b = {1, 1100, 1100.0, 300, 300.0};
        d.rows = {linear};
        diff.setDiff(d);
        const auto sorted = [&](int column) {
            return diff.index(0, column).data(TraceDiffModel::SortRole).toDouble();
        };
        QCOMPARE(sorted(TraceDiffModel::SelfA), 200.0);
        QCOMPARE(sorted(TraceDiffModel::TotalA), 1000.0);
        QCOMPARE(sorted(TraceDiffModel::SelfB), 300.0);
        QCOMPARE(sorted(TraceDiffModel::Change), 100.0);
        QCOMPARE(diff.index(0, TraceDiffModel::Relative).data().toString(),
                 QStringLiteral("+50.0 %"));
    }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
