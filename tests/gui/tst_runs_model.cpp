// The Runs tab's table model on a stored matrix: columns, failures, sorting, metric names
// and units, CSV cells, diverged losses and runs measured under contention.
#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <limits>

#include "gui/app/CsvExport.hpp"
#include "gui/common/ExportRole.hpp"
#include "gui/runs/RunsTableModel.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
#include "tests/gui/SampleRuns.hpp"

using namespace trainscope;
using namespace trainscope::gui;

class TestRunsModel : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::vector<reports::RunRecord> runs_;

  private slots:
    void initTestCase() { testing::loadSampleRuns(dir_, runs_); }

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
};

QTEST_MAIN(TestRunsModel)
#include "tst_runs_model.moc"
