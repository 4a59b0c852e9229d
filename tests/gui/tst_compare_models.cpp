// The Compare tab's models: the metrics of run B against run A with each metric's
// direction and the CLI's own verdict, and the kernel diff of two traces with its CSV.
#include <QAbstractItemModelTester>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include "gui/app/CsvExport.hpp"
#include "gui/compare/CompareModels.hpp"
#include "gui/compare/TraceDiffModel.hpp"
#include "tests/gui/SampleRuns.hpp"

using namespace trainscope;
using namespace trainscope::gui;

class TestCompareModels : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::vector<reports::RunRecord> runs_;

  private slots:
    void initTestCase() { testing::loadSampleRuns(dir_, runs_); }

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

QTEST_MAIN(TestCompareModels)
#include "tst_compare_models.moc"
