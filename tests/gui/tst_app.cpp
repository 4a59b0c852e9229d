// The application: corrupt files are reported (never a crash), screenshots of every
// view on a generated database are not blank, the loader works off the GUI thread.
#include <QApplication>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QItemSelectionModel>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <vector>

#include "gui/app/CsvExport.hpp"
#include "gui/app/MainWindow.hpp"
#include "gui/app/RecentFilesMenu.hpp"
#include "gui/app/Screenshot.hpp"
#include "gui/compare/CompareView.hpp"
#include "gui/compare/TraceDiffModel.hpp"
#include "gui/kernels/KernelStatsModel.hpp"
#include "gui/loading/TraceLoader.hpp"
#include "gui/runs/RunsTableModel.hpp"
#include "gui/runs/RunsView.hpp"
#include "gui/timeline/TimelineView.hpp"
#include "tests/gui/GuiTestUtil.hpp"
#include "tests/gui/TraceDbGenerator.hpp"

using namespace trainscope;
using namespace trainscope::gui;

namespace {

// A loader's signals as the window receives them: on the GUI thread, the loading
// thread's arriving queued. Not QSignalSpy, which records in the emitting thread (a
// direct connection), so a test reading it while the loading thread appends races with
// it; ThreadSanitizer reported exactly that (docs/sanitizers.md).
struct LoaderSignals {
    explicit LoaderSignals(TraceLoader& loader) {
        QObject::connect(&loader, &TraceLoader::ready, &receiver,
                         [this](const LoadedTracePtr& trace) { ready.push_back(trace); });
        QObject::connect(&loader, &TraceLoader::progress, &receiver,
                         [this](int percent) { progress.push_back(percent); });
        QObject::connect(&loader, &TraceLoader::failed, &receiver,
                         [this](const QString& message) { failed.push_back(message); });
        QObject::connect(&loader, &TraceLoader::cancelled, &receiver, [this] { ++cancelled; });
    }
    QObject receiver;  // lives on the GUI thread
    std::vector<LoadedTracePtr> ready;
    std::vector<int> progress;
    std::vector<QString> failed;
    int cancelled = 0;
};

}  // namespace

class TestApp : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString db_;
    std::int64_t main_run_ = 0;

    QString writeFile(const QString& name, const QByteArray& bytes) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(bytes);
        return path;
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath(QStringLiteral("results.db"));
        QStandardPaths::setTestModeEnabled(true);  // recent files go to a test location
        main_run_ = testing::writeDatabase(db_.toStdString(), {20000, 1000, 3});
        QVERIFY(main_run_ > 0);
    }

    void corruptDatabaseShowsAnError_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("garbage") << QByteArray(4096, 'x')
                                 << QStringLiteral("not an SQLite database");
        QTest::newRow("empty file")
            << QByteArray() << QStringLiteral("not a trainscope results database");
        QByteArray truncated_header("SQLite format 3\0", 16);
        truncated_header += QByteArray(200, '\xff');
        QTest::newRow("damaged header") << truncated_header << QString();
    }
    void corruptDatabaseShowsAnError() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const QString path = writeFile(QStringLiteral("bad-%1.db")
                                           .arg(QTest::currentDataTag())
                                           .replace(QLatin1Char(' '), QLatin1Char('_')),
                                       bytes);
        MainWindow window;
        QStringList errors;
        window.setErrorSink([&](const QString& m) { errors << m; });
        QVERIFY(!window.openDatabase(path));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.front().contains(path), qPrintable(errors.front()));
        if (!expected.isEmpty())
            QVERIFY2(errors.front().contains(expected), qPrintable(errors.front()));
        // Still usable afterwards.
        QVERIFY(window.openDatabase(db_));
        QCOMPARE(window.runsModel()->rowCount(), 16);
    }

    void missingFileIsReported() {
        MainWindow window;
        QString error;
        window.setErrorSink([&](const QString& m) { error = m; });
        QVERIFY(!window.openDatabase(dir_.filePath(QStringLiteral("nope.db"))));
        QVERIFY(error.contains(QLatin1String("no such file")));
    }

    void screenshotOfEachViewIsNotBlank_data() {
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("minColours");
        QTest::newRow("timeline") << "timeline" << 200;
        QTest::newRow("runs") << "runs" << 100;
        QTest::newRow("utilization") << "utilization" << 8;
        QTest::newRow("kernels") << "kernels" << 50;
        QTest::newRow("compare") << "compare" << 50;
    }
    void screenshotOfEachViewIsNotBlank() {
        QFETCH(QString, view);
        QFETCH(int, minColours);
        ScreenshotRequest request;
        request.database = db_;
        request.output = dir_.filePath(view + QStringLiteral(".png"));
        request.view = view;
        QString error;
        QCOMPARE(takeScreenshot(request, &error), 0);
        QImage image(request.output);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 1000);
        const int colours = testing::distinctColours(image);
        QVERIFY2(colours >= minColours, qPrintable(QStringLiteral("%1 colours").arg(colours)));
    }

    void screenshotOfABadFileExitsWithTwo() {
        ScreenshotRequest request;
        request.database = writeFile(QStringLiteral("junk.db"), QByteArray(1000, 'j'));
        request.output = dir_.filePath(QStringLiteral("junk.png"));
        QString error;
        QCOMPARE(takeScreenshot(request, &error), 2);
        QVERIFY(error.contains(QLatin1String("junk.db")));
        QVERIFY(!QFile::exists(request.output));
        request.database = db_;
        request.view = QStringLiteral("nonsense");
        QCOMPARE(takeScreenshot(request, &error), 2);
        request.view = QStringLiteral("timeline");
        request.run = 999;
        QCOMPARE(takeScreenshot(request, &error), 2);
    }

    void loaderDeliversOffTheGuiThread() {
        TraceLoader loader;
        LoaderSignals got(loader);
        loader.start(db_, main_run_);
        QTRY_VERIFY_WITH_TIMEOUT(got.ready.size() == 1, 60000);
        QCOMPARE(got.failed.size(), std::size_t(0));
        QVERIFY(got.progress.size() >= 2);
        const LoadedTracePtr trace = got.ready.front();
        QVERIFY(trace);
        QCOMPARE(trace->run_id, main_run_);
        QCOMPARE(trace->timeline->kernelCount(), std::size_t(20000));
        QVERIFY(!trace->kernel_stats.empty());
    }

    void loaderReportsFailures() {
        TraceLoader loader;
        LoaderSignals got(loader);
        loader.start(db_, 12345);
        QTRY_VERIFY_WITH_TIMEOUT(got.failed.size() == 1, 30000);
        QVERIFY(!got.failed.front().isEmpty());
        loader.start(writeFile(QStringLiteral("junk2.db"), QByteArray(1000, 'j')), 1);
        QTRY_VERIFY_WITH_TIMEOUT(got.failed.size() == 2, 30000);
    }

    void cancelledLoadDeliversNothing() {
        TraceLoader loader;
        LoaderSignals got(loader);
        loader.start(db_, main_run_);
        loader.cancel();
        QCOMPARE(got.cancelled, 1);
        QTest::qWait(1500);
        QCOMPARE(got.ready.size(), std::size_t(0));
        // Cancelling when nothing runs is quiet.
        loader.cancel();
        QCOMPARE(got.cancelled, 1);
    }

    void openingShowsTheTracedRunOnTheTimelineReadyForKeys() {
        MainWindow window;
        window.setRememberRecent(false);
        QStringList errors;
        window.setErrorSink([&](const QString& m) { errors << m; });
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.openAndShow(db_));
        QVERIFY(!window.tracedRuns().empty());
        QCOMPARE(window.tracedRuns().front(), main_run_);
        QCOMPARE(window.runsView()->selectedRunIds(), (std::vector<std::int64_t>{main_run_}));
        QVERIFY(window.timeline()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(window.timeline()->data() != nullptr, 30000);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(window.timeline()));
        // W zooms in at once, with no click on the canvas first.
        const double before = window.timeline()->state().mapping.durationNs();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_W);
        QVERIFY(window.timeline()->state().mapping.durationNs() < before);
        QVERIFY(errors.isEmpty());
    }

    void openingARunByIdAndAWrongId() {
        MainWindow window;
        window.setRememberRecent(false);
        QStringList errors;
        window.setErrorSink([&](const QString& m) { errors << m; });
        QVERIFY(window.openAndShow(db_, 2));
        QCOMPARE(window.runsView()->selectedRunIds(), (std::vector<std::int64_t>{2}));
        QVERIFY(errors.isEmpty());
        QVERIFY(window.openAndShow(db_, 999));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.front().contains(QLatin1String("no run 999")), qPrintable(errors.front()));
        QCOMPARE(window.runsView()->selectedRunIds(), (std::vector<std::int64_t>{main_run_}));
    }

    void selectingARunLoadsItsTraceInTheBackground() {
        MainWindow window;
        QStringList errors;
        window.setErrorSink([&](const QString& m) { errors << m; });
        QVERIFY(window.openDatabase(db_));
        QVERIFY(!window.timeline()->data());
        window.runsView()->selectRun(main_run_);
        // The outline (painted from the summaries) comes first; then the trace itself.
        QTRY_VERIFY_WITH_TIMEOUT(window.timeline()->data() != nullptr, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!window.timeline()->data()->partial(), 30000);
        QCOMPARE(window.timeline()->data()->kernelCount(), std::size_t(20000));
        QVERIFY(window.kernelModel()->rowCount() > 5);
        QVERIFY(errors.isEmpty());
    }

    void selectingTwoRunsFillsTheComparison() {
        MainWindow window;
        QStringList errors;
        window.setErrorSink([&](const QString& m) { errors << m; });
        QVERIFY(window.openDatabase(db_));
        QTableView* table = window.runsView()->table();
        table->selectionModel()->select(table->model()->index(0, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        table->selectionModel()->select(table->model()->index(1, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(window.runsView()->selectedRunIds(), (std::vector<std::int64_t>{1, 2}));
        QVERIFY(window.compareView()->metricsTable()->model()->rowCount() >= 8);
        QTRY_VERIFY_WITH_TIMEOUT(window.compareView()->kernelTable()->model()->rowCount() > 5,
                                 60000);
        const auto* diff = window.compareView()->kernelTable()->model();
        QVERIFY(diff->headerData(TraceDiffModel::TotalA, Qt::Horizontal)
                    .toString()
                    .contains(QLatin1String("per step")));
        // The Kernels tab sums both runs: 20,000 kernels of run 1 plus run 2's.
        auto kernel_count = [&] {
            qint64 n = 0;
            for (int r = 0; r < window.kernelModel()->rowCount(); ++r) {
                const QModelIndex i =
                    window.kernelModel()->index(r, KernelStatsModel::CategoryColumn);
                if (!i.data().toString().startsWith(QLatin1String("mem")))
                    n +=
                        window.kernelModel()->index(r, KernelStatsModel::Count).data().toLongLong();
            }
            return n;
        };
        QTRY_COMPARE_WITH_TIMEOUT(kernel_count(), qint64(21000), 60000);
        QVERIFY(errors.isEmpty());
    }

    void rangeSelectionScopesTheKernelTable() {
        MainWindow window;
        QVERIFY(window.openDatabase(db_));
        QVERIFY(window.loadTraceNow(main_run_));
        auto total_count = [&] {
            qint64 n = 0;
            for (int r = 0; r < window.kernelModel()->rowCount(); ++r)
                n += window.kernelModel()->index(r, KernelStatsModel::Count).data().toLongLong();
            return n;
        };
        const qint64 all = total_count();
        const auto& d = *window.timeline()->data();
        const double mid = static_cast<double>(d.beginNs() + d.endNs()) / 2;
        emit window.timeline()->rangeSelected(mid, mid + 5e6);  // 5 ms
        const qint64 in_range = total_count();
        QVERIFY(in_range > 0);
        QVERIFY(in_range < all / 10);
    }

    // The header's context menu shows and hides columns; the choice outlives the view
    // (QSettings) and the CSV export leaves hidden columns out.
    void columnChooserRemembersTheChoice() {
        QSettings().remove(QStringLiteral("runs/columns"));
        RunsTableModel model;
        reports::RunRecord r;
        r.id = 1;
        r.metrics = {{"images_per_s", 1000.0, "images/s"},
                     {"step_ms_median", 10.0, "ms"},
                     {"step_ms_ci_low", 9.0, "ms"}};
        model.setRuns({r});
        const QString ci = QStringLiteral("metric:step_ms_ci_low");
        const QString median = QStringLiteral("metric:step_ms_median");
        {
            RunsView view(&model);
            // Defaults: the important columns shown, interval bounds hidden.
            QVERIFY(view.isColumnShown(median));
            QVERIFY(!view.isColumnShown(ci));
            QMenu* menu = view.columnMenu();
            QAction* median_action = nullptr;
            for (QAction* a : menu->actions()) {
                if (a->data().toString() == median)
                    median_action = a;
            }
            QVERIFY(median_action);
            QCOMPARE(median_action->text(), QStringLiteral("Step time, median (ms)"));
            QVERIFY(median_action->isChecked());
            median_action->trigger();  // untick: hide
            QVERIFY(!view.isColumnShown(median));
            view.setColumnShown(ci, true);
            QVERIFY(view.isColumnShown(ci));
            const QString csv = toCsv(*view.table());
            QVERIFY2(!csv.contains(QLatin1String("Step time, median")), qPrintable(csv));
            QVERIFY(csv.contains(QLatin1String("Step time, mean: 95 % CI low (ms)")));
        }
        RunsView again(&model);
        QVERIFY(!again.isColumnShown(median));
        QVERIFY(again.isColumnShown(ci));
        again.resetColumns();
        QVERIFY(again.isColumnShown(median));
        QVERIFY(!again.isColumnShown(ci));
    }

    void recentFilesKeepTheLastEightNewestFirst() {
        QSettings().remove(QStringLiteral("recentFiles"));
        QMenu menu;
        QStringList opened;
        RecentFilesMenu recent(
            &menu, [&](const QString& p) { opened << p; }, nullptr);
        QVERIFY(!menu.isEnabled());
        for (int i = 0; i < 10; ++i)
            recent.add(QStringLiteral("/data/run%1.db").arg(i));
        recent.add(QStringLiteral("/data/run3.db"));  // opened again: moves to the top
        const auto actions = menu.actions();
        QCOMPARE(actions.size(), 8);
        QCOMPARE(actions.front()->text(), QStringLiteral("/data/run3.db"));
        QCOMPARE(actions.at(1)->text(), QStringLiteral("/data/run9.db"));
        QCOMPARE(actions.back()->text(), QStringLiteral("/data/run2.db"));  // 0 and 1 fell off
        actions.at(1)->trigger();
        QCOMPARE(opened, QStringList{QStringLiteral("/data/run9.db")});
        // Kept for the next start.
        QMenu again;
        RecentFilesMenu restored(
            &again, [](const QString&) {}, nullptr);
        QCOMPARE(again.actions().size(), 8);
        QSettings().remove(QStringLiteral("recentFiles"));
    }

    void csvQuotesFields() {
        RunsTableModel model;
        reports::RunRecord r;
        r.id = 1;
        r.status = reports::RunStatus::Failed;
        r.error = "bad \"thing\", really";
        model.setRuns({r});
        const QString csv = toCsv(model);
        QVERIFY2(csv.startsWith(QLatin1String("run,status,error\r\n")), qPrintable(csv));
        QVERIFY2(csv.contains(QLatin1String("1,failed,\"bad \"\"thing\"\", really\"\r\n")),
                 qPrintable(csv));
        const QString path = dir_.filePath(QStringLiteral("runs.csv"));
        QCOMPARE(writeCsv(model, path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), csv);
    }
};

QTEST_MAIN(TestApp)
#include "tst_app.moc"
