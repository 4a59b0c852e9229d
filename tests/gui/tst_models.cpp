// Item models: QAbstractItemModelTester, roles, failed rows, proxies, statistics,
// confidence intervals and the compare verdict.
#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>

#include "gui/charts/LineChart.hpp"
#include "gui/compare/CompareModels.hpp"
#include "gui/kernels/KernelStats.hpp"
#include "gui/kernels/KernelStatsModel.hpp"
#include "gui/runs/MetricChartData.hpp"
#include "gui/runs/RunsTableModel.hpp"
#include "gui/timeline/KernelCategory.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
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

    void intervalsAndVerdicts_data() {
        QTest::addColumn<double>("aLow");
        QTest::addColumn<double>("aHigh");
        QTest::addColumn<double>("bLow");
        QTest::addColumn<double>("bHigh");
        QTest::addColumn<int>("verdict");
        QTest::newRow("disjoint") << 1.0 << 2.0 << 3.0 << 4.0 << int(Verdict::Significant);
        QTest::newRow("disjoint reversed") << 3.0 << 4.0 << 1.0 << 2.0 << int(Verdict::Significant);
        QTest::newRow("overlap") << 1.0 << 3.0 << 2.0 << 4.0 << int(Verdict::WithinNoise);
        QTest::newRow("nested") << 1.0 << 5.0 << 2.0 << 3.0 << int(Verdict::WithinNoise);
        QTest::newRow("touching") << 1.0 << 2.0 << 2.0 << 3.0 << int(Verdict::WithinNoise);
    }
    void intervalsAndVerdicts() {
        QFETCH(double, aLow);
        QFETCH(double, aHigh);
        QFETCH(double, bLow);
        QFETCH(double, bHigh);
        QFETCH(int, verdict);
        QCOMPARE(int(compareIntervals(std::make_pair(aLow, aHigh), std::make_pair(bLow, bHigh))),
                 verdict);
        QCOMPARE(int(compareIntervals(std::nullopt, std::make_pair(bLow, bHigh))),
                 int(Verdict::NoInterval));
    }

    void imagesPerSecondIntervalFromStepTime() {
        reports::RunRecord r;
        r.axes.batch = 100;
        r.metrics = {{"images_per_s", 10000.0, "images/s"},
                     {"step_ms_median", 10.0, "ms"},
                     {"step_ms_ci_low", 8.0, "ms"},
                     {"step_ms_ci_high", 12.5, "ms"}};
        const auto step = metricInterval(r, "step_ms_median");
        QVERIFY(step);
        QCOMPARE(step->first, 8.0);
        QCOMPARE(step->second, 12.5);
        const auto ips = metricInterval(r, "images_per_s");
        QVERIFY(ips);
        QCOMPARE(ips->first, 8000.0);
        QCOMPARE(ips->second, 12500.0);
        QVERIFY(!metricInterval(r, "gpu_busy_pct"));
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
        QVERIFY2(text.contains(QLatin1String("batch = 32")) && text.contains(QLatin1String("CI [")),
                 qPrintable(text));
        QVERIFY(chart.pointTextAt(QPointF(-100, -100)).isEmpty());
    }

    void compareModelsPassTheTester() {
        CompareMetricsModel metrics;
        QAbstractItemModelTester t1(&metrics,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        metrics.setRuns(&runs_[0], &runs_[5]);
        QVERIFY(metrics.rowCount() >= 8);
        bool found = false;
        for (int r = 0; r < metrics.rowCount(); ++r) {
            if (metrics.index(r, CompareMetricsModel::Metric)
                    .data(CompareMetricsModel::SortRole)
                    .toString() == QLatin1String("step_ms_median")) {
                found = true;
                QCOMPARE(metrics.index(r, 0).data(CompareMetricsModel::VerdictRole).toInt(),
                         int(Verdict::Significant));
            }
        }
        QVERIFY(found);
        metrics.setRuns(nullptr, nullptr);
        QCOMPARE(metrics.rowCount(), 0);

        KernelDiffModel diff;
        QAbstractItemModelTester t2(&diff, QAbstractItemModelTester::FailureReportingMode::QtTest);
        KernelStat a;
        a.name = QStringLiteral("gemm");
        a.count = 2;
        a.total_ns = 1000;
        KernelStat b = a;
        b.total_ns = 1500;
        KernelStat c;
        c.name = QStringLiteral("conv");
        c.count = 1;
        c.total_ns = 300;
        diff.setStats({a}, {b, c});
        QCOMPARE(diff.rowCount(), 2);
        for (int r = 0; r < 2; ++r) {
            if (diff.index(r, 0).data().toString() == QLatin1String("gemm")) {
                QCOMPARE(diff.index(r, KernelDiffModel::Diff)
                             .data(KernelDiffModel::SortRole)
                             .toLongLong(),
                         500);
                QCOMPARE(diff.index(r, KernelDiffModel::Relative).data().toString(),
                         QStringLiteral("+50.0 %"));
            } else {
                QCOMPARE(diff.index(r, KernelDiffModel::Relative).data().toString(),
                         QStringLiteral("new"));
            }
        }
    }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
