// The Compare tab: the same verdict as `trainscope compare` on the same pair (the CLI
// runs as a separate process), a run is never compared with itself, busy-machine runs
// are flagged, and Kineto's ProfilerStep#N ranges count as training steps.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "gui/compare/CompareModels.hpp"
#include "gui/compare/CompareView.hpp"
#include "gui/compare/TraceDiffModel.hpp"
#include "gui/runs/RunsTableModel.hpp"
#include "profiler/analysis/TraceDiff.hpp"
#include "profiler/trace/LaneRegistry.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/TraceStore.hpp"

using namespace trainscope;
using namespace trainscope::gui;

namespace {

reports::RunRecord timedRun(double mean_ms, double stdev_ms, double count) {
    reports::RunRecord r;
    r.axes.model = "seed-cnn";
    r.axes.batch = 64;
    r.metrics = {{"images_per_s", 64000.0 / mean_ms, "images/s"},
                 {"step_ms_mean", mean_ms, "ms"},
                 {"step_ms_stdev", stdev_ms, "ms"},
                 {"step_count", count, ""}};
    return r;
}

// A trace shaped like a PyTorch profiler capture: ProfilerStep#N ranges on the host
// thread (and Kineto's copy on the GPU lane), one 1 ms kernel per step.
profiler::Trace profilerStepTrace(int steps) {
    profiler::Trace t;
    profiler::LaneRegistry lanes(t);
    const auto host = lanes.find_or_add(profiler::LaneKind::HostThread, -1, 1, 1, "python");
    const auto gpu = lanes.find_or_add(profiler::LaneKind::GpuStream, 0, 7, 1, "stream 7");
    for (int i = 0; i < steps; ++i) {
        const std::int64_t start = i * 10'000'000;
        const auto name = t.strings.intern("ProfilerStep#" + std::to_string(i + 5));
        profiler::Activity step;
        step.kind = profiler::ActivityKind::NvtxRange;
        step.lane = host;
        step.start_ns = start;
        step.end_ns = start + 9'000'000;
        step.name = name;
        t.activities.push_back(step);
        profiler::Activity mirrored = step;  // gpu_user_annotation
        mirrored.lane = gpu;
        mirrored.device = 0;
        t.activities.push_back(mirrored);
        profiler::Activity kernel;
        kernel.kind = profiler::ActivityKind::Kernel;
        kernel.lane = gpu;
        kernel.device = 0;
        kernel.start_ns = start + 1'000'000;
        kernel.end_ns = start + 2'000'000;
        kernel.name = t.strings.intern("volta_sgemm_128x64_nn");
        t.activities.push_back(kernel);
    }
    t.capture_end_ns = steps * 10'000'000;
    t.metadata["source"] = "kineto";
    t.sort();
    return t;
}

// profilerStepTrace with more to diff: two instantiations of one templated kernel (one
// row after normalisation), a kernel only this side has, and host operators.
profiler::Trace diffTrace(int steps, std::int64_t elementwise_ns, const std::string& only_here) {
    profiler::Trace t = profilerStepTrace(steps);
    profiler::LaneRegistry lanes(t);
    const auto host = lanes.find_or_add(profiler::LaneKind::HostThread, -1, 1, 1, "python");
    const auto gpu = lanes.find_or_add(profiler::LaneKind::GpuStream, 0, 7, 1, "stream 7");
    const auto add = [&](profiler::ActivityKind kind, profiler::LaneId lane, std::int64_t start,
                         std::int64_t length, const std::string& name) {
        profiler::Activity a;
        a.kind = kind;
        a.lane = lane;
        a.device = kind == profiler::ActivityKind::Kernel ? 0 : -1;
        a.start_ns = start;
        a.end_ns = start + length;
        a.name = t.strings.intern(name);
        t.activities.push_back(a);
    };
    for (int i = 0; i < steps; ++i) {
        const std::int64_t start = i * 10'000'000 + 3'000'000;
        add(profiler::ActivityKind::Kernel, gpu, start, elementwise_ns,
            "void at::native::vectorized_elementwise_kernel<4, float>(int, float*)");
        add(profiler::ActivityKind::Kernel, gpu, start + 100'000, 2 * elementwise_ns,
            "void at::native::vectorized_elementwise_kernel<2, c10::Half>(int, c10::Half*)");
        add(profiler::ActivityKind::Kernel, gpu, start + 400'000, 50'000, only_here);
        add(profiler::ActivityKind::HostOp, host, start - 2'000'000, 300'000 + i, "aten::mm");
    }
    t.sort();
    return t;
}

}  // namespace

class TestCompare : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString writeRuns(const QString& name, std::vector<reports::RunRecord> runs) {
        const QString path = dir_.filePath(name);
        reports::ResultsDatabase db(path.toStdString(), reports::OpenMode::CreateOrOpen);
        reports::RunWriter writer(db);
        const auto matrix = writer.create_matrix({"compare test", "", "0", "test"});
        for (auto& r : runs) {
            r.matrix_id = matrix;
            writer.write(r);
        }
        return path;
    }

    static std::vector<reports::RunRecord> load(const QString& path) {
        reports::ResultsDatabase db(path.toStdString(), reports::OpenMode::ReadOnly);
        return reports::load_runs(db, {}, {});
    }

  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Pairs near each edge of the verdict: both faces must read them the same way.
    void sameVerdictAsTheCli_data() {
        QTest::addColumn<double>("meanB");
        QTest::addColumn<double>("stdevB");
        QTest::addColumn<double>("countB");
        QTest::addColumn<QString>("expected");
        QTest::newRow("faster") << 8.0 << 0.1 << 200.0 << "faster";
        QTest::newRow("slower") << 12.0 << 0.1 << 200.0 << "slower";
        // 1.5 % slower and measured precisely: the two means' intervals do not overlap
        // (the GUI's old rule called that "significant"), but the difference is inside
        // the 2 % band that matters.
        QTest::newRow("same: inside the 2 % band") << 10.15 << 0.01 << 2000.0 << "same";
        QTest::newRow("unclear: too noisy to tell") << 10.3 << 5.0 << 10.0 << "unclear";
    }
    void sameVerdictAsTheCli() {
        QFETCH(double, meanB);
        QFETCH(double, stdevB);
        QFETCH(double, countB);
        QFETCH(QString, expected);
        const QString db = writeRuns(QStringLiteral("%1.db").arg(QTest::currentDataTag()),
                                     {timedRun(10.0, 0.1, 200), timedRun(meanB, stdevB, countB)});
        const auto runs = load(db);
        QCOMPARE(runs.size(), std::size_t(2));

        QProcess cli;
        cli.start(QStringLiteral(TRAINSCOPE_CLI),
                  {QStringLiteral("compare"), db, QStringLiteral("--baseline"),
                   QString::number(runs[0].id)});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        QString cli_verdict;
        for (const QString& line : QString::fromUtf8(cli.readAllStandardOutput()).split('\n')) {
            if (line.startsWith(QString::number(runs[1].id) + QLatin1Char(' ')))
                cli_verdict = line.split(QLatin1Char(' '), Qt::SkipEmptyParts).last();
        }
        QCOMPARE(cli_verdict, expected);

        RunsTableModel model;
        model.setRuns(runs);
        CompareView view(&model);
        view.setRuns(runs[0].id, runs[1].id);
        const auto& gui = view.metricsModel()->stepTimeComparison();
        QVERIFY(gui);
        QCOMPARE(QString::fromStdString(reports::to_string(gui->verdict)), cli_verdict);
        QVERIFY2(view.summaryText().contains(cli_verdict), qPrintable(view.summaryText()));
    }

    void cliHonoursSameWithin() {
        // 1.5 % slower, precisely: "same" within the default 2 %, "slower" within 0.1 %.
        const QString db = writeRuns(QStringLiteral("band.db"),
                                     {timedRun(10.0, 0.01, 2000), timedRun(10.15, 0.01, 2000)});
        QProcess cli;
        cli.start(QStringLiteral(TRAINSCOPE_CLI),
                  {QStringLiteral("compare"), db, QStringLiteral("--same-within"),
                   QStringLiteral("0.001")});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        const QString out = QString::fromUtf8(cli.readAllStandardOutput());
        QVERIFY2(out.trimmed().endsWith(QLatin1String("slower")), qPrintable(out));
    }

    void aRunIsNeverComparedWithItself() {
        const QString db = writeRuns(QStringLiteral("self.db"),
                                     {timedRun(10.0, 0.1, 200), timedRun(11.0, 0.1, 200)});
        RunsTableModel model;
        model.setRuns(load(db));
        CompareView view(&model);
        view.setDatabasePath(db);
        const auto id = model.runs().front().id;
        view.setRuns(id, id);
        QVERIFY2(view.summaryText().contains(QLatin1String("same run")),
                 qPrintable(view.summaryText()));
        QCOMPARE(view.metricsTable()->model()->rowCount(), 0);
        view.loadKernelDiffNow();
        QCOMPARE(view.kernelTable()->model()->rowCount(), 0);
        view.setRuns(id, model.runs().back().id);
        QVERIFY(view.metricsTable()->model()->rowCount() > 0);
    }

    void runsMeasuredOnABusyMachineAreFlagged() {
        reports::RunRecord clean = timedRun(10.0, 0.1, 200);
        clean.metrics.push_back({"host_other_cpu_pct", 1.0, "%"});
        reports::RunRecord busy = timedRun(9.0, 0.1, 200);
        busy.metrics.push_back({"host_other_cpu_pct", 46.5, "%"});
        RunsTableModel model;
        model.setRuns(load(writeRuns(QStringLiteral("busy.db"), {clean, busy})));
        CompareView view(&model);
        view.setRuns(model.runs()[0].id, model.runs()[1].id);
        QVERIFY2(view.warningText().contains(QLatin1String("Run B")) &&
                     view.warningText().contains(QLatin1String("46.5 %")),
                 qPrintable(view.warningText()));
        QVERIFY(!view.warningText().contains(QLatin1String("Run A")));
        view.setRuns(model.runs()[1].id, model.runs()[0].id);
        QVERIFY(view.warningText().contains(QLatin1String("Run A")));
    }

    // trainscope against PyTorch on the same cell: the run pickers must say which is which.
    void thePickersNameTheFrameworkWhereRunsOfBothAreLoaded() {
        reports::RunRecord ours = timedRun(10.0, 0.1, 200);
        ours.axes.framework = "trainscope";
        reports::RunRecord theirs = timedRun(20.0, 0.1, 200);
        theirs.axes.framework = "pytorch";
        RunsTableModel model;
        model.setRuns(load(writeRuns(QStringLiteral("frameworks.db"), {ours, theirs})));
        CompareView view(&model);
        const auto combos = view.findChildren<QComboBox*>();
        QVERIFY(!combos.isEmpty());
        QStringList labels;
        for (int i = 0; i < combos.front()->count(); ++i)
            labels << combos.front()->itemText(i);
        QCOMPARE(labels.size(), 2);
        QVERIFY2(labels[0].contains(QLatin1String("trainscope seed-cnn")), qPrintable(labels[0]));
        QVERIFY2(labels[1].contains(QLatin1String("pytorch seed-cnn")), qPrintable(labels[1]));

        model.setRuns(load(writeRuns(QStringLiteral("one-framework.db"), {ours, ours})));
        QVERIFY2(!combos.front()->itemText(0).contains(QLatin1String("trainscope")),
                 qPrintable(combos.front()->itemText(0)));
    }

    void profilerStepsAreTrainingSteps() {
        reports::RunRecord a = timedRun(10.0, 0.1, 200);
        a.source = "kineto";
        a.trace = profilerStepTrace(2);
        reports::RunRecord b = a;
        b.trace = profilerStepTrace(4);
        const QString db = writeRuns(QStringLiteral("kineto.db"), {a, b});
        RunsTableModel model;
        model.setRuns(load(db));
        CompareView view(&model);
        view.setDatabasePath(db);
        view.setRuns(model.runs()[0].id, model.runs()[1].id);
        view.loadKernelDiffNow();
        const auto* diff = view.kernelTable()->model();
        QVERIFY(diff->headerData(TraceDiffModel::TotalA, Qt::Horizontal)
                    .toString()
                    .contains(QLatin1String("per step")));
        QCOMPARE(diff->rowCount(), 1);
        // 2 and 4 kernels of 1 ms over 2 and 4 steps: 1 ms per step on both sides.
        QCOMPARE(diff->index(0, TraceDiffModel::TotalA).data(TraceDiffModel::SortRole).toDouble(),
                 1e6);
        QCOMPARE(diff->index(0, TraceDiffModel::TotalB).data(TraceDiffModel::SortRole).toDouble(),
                 1e6);
        QVERIFY2(view.noteText().contains(QLatin1String("ProfilerStep")),
                 qPrintable(view.noteText()));
    }

    // The kernels diff of the Compare tab is profiler::diff_traces of the two runs, and
    // `trainscope diff` prints the same rows.
    void kernelsDiffIsTrainscopeDiffsRows() {
        reports::RunRecord a = timedRun(10.0, 0.1, 200);
        a.source = "kineto";
        a.trace = diffTrace(2, 40'000, "only_in_a_kernel");
        reports::RunRecord b = a;
        b.trace = diffTrace(3, 30'000, "only_in_b_kernel");
        const QString db = writeRuns(QStringLiteral("diff.db"), {a, b});
        RunsTableModel model;
        model.setRuns(load(db));
        const auto id_a = model.runs()[0].id;
        const auto id_b = model.runs()[1].id;
        CompareView view(&model);
        QAbstractItemModelTester tester(view.traceDiffModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setDatabasePath(db);
        view.setRuns(id_a, id_b);
        view.loadKernelDiffNow();
        const QAbstractItemModel* table = view.kernelTable()->model();  // as shown (proxy)

        const reports::ResultsDatabase store(db.toStdString(), reports::OpenMode::ReadOnly);
        profiler::TraceDiffOptions per_step;  // both traces have ProfilerStep ranges
        per_step.per_step = true;
        const auto expected = profiler::diff_traces(*reports::load_trace(store, id_a),
                                                    *reports::load_trace(store, id_b), per_step);
        QVERIFY(expected.per_step);
        QCOMPARE(table->rowCount(), static_cast<int>(expected.rows.size()));
        QCOMPARE(table->rowCount(), 5);  // gemm, elementwise (2 folded), 2 one-sided, aten::mm
        for (int r = 0; r < table->rowCount(); ++r) {
            const auto& row = expected.rows[static_cast<std::size_t>(r)];
            const auto cell = [&](int column) {
                return table->index(r, column).data(TraceDiffModel::SortRole);
            };
            QCOMPARE(cell(TraceDiffModel::Name).toString(), QString::fromStdString(row.name));
            QCOMPARE(cell(TraceDiffModel::CountA).toLongLong(), row.a.count);
            QCOMPARE(cell(TraceDiffModel::CountB).toLongLong(), row.b.count);
            QCOMPARE(cell(TraceDiffModel::TotalA).toDouble(), row.a.time_ns);
            QCOMPARE(cell(TraceDiffModel::TotalB).toDouble(), row.b.time_ns);
            QCOMPARE(cell(TraceDiffModel::SelfA).toDouble(), row.a.self_time_ns);
            QCOMPARE(cell(TraceDiffModel::SelfB).toDouble(), row.b.self_time_ns);
            QCOMPARE(cell(TraceDiffModel::Change).toDouble(), row.change_ns());
        }

        QProcess cli;
        cli.start(
            QStringLiteral(TRAINSCOPE_CLI),
            {QStringLiteral("diff"), db, QString::number(id_a), QString::number(id_b),
             QStringLiteral("--per-step"), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        const QJsonArray rows = QJsonDocument::fromJson(cli.readAllStandardOutput()).array();
        QCOMPARE(rows.size(), table->rowCount());
        for (int r = 0; r < table->rowCount(); ++r) {
            const QJsonObject row = rows[r].toObject();
            const auto cell = [&](int column) {
                return table->index(r, column).data(TraceDiffModel::SortRole);
            };
            QCOMPARE(row[QStringLiteral("name")].toString(), cell(TraceDiffModel::Name).toString());
            QCOMPARE(row[QStringLiteral("kind")].toString(), cell(TraceDiffModel::Kind).toString());
            QCOMPARE(row[QStringLiteral("status")].toString(),
                     cell(TraceDiffModel::Status).toString());
            QCOMPARE(row[QStringLiteral("count B")].toInteger(),
                     cell(TraceDiffModel::CountB).toLongLong());
            // The CLI prints microseconds to the nanosecond: per-step values may lose half a ns
            // (and the µs text a few ulps).
            const auto ns = [&](const char* key) {
                return row[QLatin1String(key)].toDouble() * 1000;
            };
            QVERIFY(std::abs(ns("B per step (us)") - cell(TraceDiffModel::TotalB).toDouble()) <=
                    0.5 + 1e-6);
            QVERIFY(std::abs(ns("self B per step (us)") - cell(TraceDiffModel::SelfB).toDouble()) <=
                    0.5 + 1e-6);
            QVERIFY(std::abs(ns("change per step (us)") -
                             cell(TraceDiffModel::Change).toDouble()) <= 0.5 + 1e-6);
        }
        // Normalised: the two instantiations are one row, named without their arguments.
        QVERIFY(!table
                     ->match(table->index(0, TraceDiffModel::Name), Qt::DisplayRole,
                             QStringLiteral("at::native::vectorized_elementwise_kernel"), 1,
                             Qt::MatchExactly)
                     .isEmpty());
        // Asked for exact names, the instantiations are two rows, as with --exact-names; the
        // box recomputes off the GUI thread.
        view.setExactNames(true);
        QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 6, 10000);
        profiler::TraceDiffOptions exact = per_step;
        exact.exact_names = true;
        const auto apart = profiler::diff_traces(*reports::load_trace(store, id_a),
                                                 *reports::load_trace(store, id_b), exact);
        for (int r = 0; r < table->rowCount(); ++r)
            QCOMPARE(table->index(r, TraceDiffModel::Name).data().toString(),
                     QString::fromStdString(apart.rows[static_cast<std::size_t>(r)].name));
        view.setExactNames(false);
        QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 5, 10000);
    }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
