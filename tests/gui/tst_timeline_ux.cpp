// The timeline's working aids: the range panel and Esc, ruler labels at awkward offsets,
// tooltip precision, a chosen time origin, short kernel names, search match counts,
// following a flow arrow, pinned device rows, folded blocks, tooltips that leave.
#include <QApplication>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <algorithm>

#include "gui/app/MainWindow.hpp"
#include "gui/compare/TraceDiffModel.hpp"
#include "gui/kernels/KernelStatsModel.hpp"
#include "gui/range/RangePanel.hpp"
#include "gui/timeline/TimeFormat.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "gui/timeline/TimelineView.hpp"
#include "tests/gui/GuiTestUtil.hpp"
#include "tests/gui/TraceDbGenerator.hpp"

using namespace trainscope;
using namespace trainscope::gui;
using trainscope::gui::testing::kernelAt;

namespace {

constexpr const char* kLongName =
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
    "at::detail::Array<char*, 1>)";

profiler::Trace gpuTrace() {
    profiler::Trace t;
    t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 1, "GPU 0 · stream 7"});
    return t;
}

std::optional<std::uint32_t> firstActivity(const TimelineData& d, profiler::ActivityKind kind,
                                           const QString& name) {
    for (std::uint32_t i = 0; i < d.trace().activities.size(); ++i) {
        if (d.activity(i).kind == kind && d.name(d.activity(i).name) == name)
            return i;
    }
    return std::nullopt;
}

QSet<QRgb> coloursIn(const QImage& image, const QRect& rect) {
    QSet<QRgb> out;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x)
            out.insert(image.pixel(x, y));
    return out;
}

}  // namespace

class TestTimelineUx : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath(QStringLiteral("results.db"));
        main_run_ = testing::writeDatabase(db_.toStdString(), {3000, 0, 4});
        QVERIFY(main_run_ > 0);
    }

    // --- range statistics ---------------------------------------------------------

    void rangePanelShowsTheRangeAndEscClearsIt() {
        MainWindow window;
        window.setRememberRecent(false);
        window.setErrorSink([](const QString& m) { QFAIL(qPrintable(m)); });
        QVERIFY(window.openDatabase(db_));
        QVERIFY(window.loadTraceNow(main_run_));
        window.showView(MainWindow::View::Timeline);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        TimelineView* view = window.timeline();
        RangePanel* panel = window.rangePanel();
        QVERIFY(!panel->isVisible());
        const int whole_run_rows = window.kernelModel()->rowCount();

        const int y = TimelineRenderer::kRulerHeight + 20;
        const int x0 = TimelineRenderer::kLabelWidth + 100;
        const int x1 = TimelineRenderer::kLabelWidth + 400;
        QTest::mousePress(view, Qt::LeftButton, Qt::ShiftModifier, QPoint(x0, y));
        QTest::mouseMove(view, QPoint(x1, y));
        QTest::mouseRelease(view, Qt::LeftButton, Qt::ShiftModifier, QPoint(x1, y));
        QVERIFY(view->state().range);
        const auto [t0, t1] = *view->state().range;
        QVERIFY(panel->isVisible());

        // Every number is the profiler's over the window: count the GPU work that starts
        // in it independently.
        const TimelineData& d = *view->data();
        std::int64_t count = 0;
        std::int64_t work = 0;
        for (const std::uint32_t idx : d.gpuWorkByStart()) {
            const auto s = static_cast<double>(d.activity(idx).start_ns);
            if (s >= t0 && s < t1) {
                ++count;
                work += d.activity(idx).duration_ns();
            }
        }
        QVERIFY(count > 10);
        const RangeStats& stats = panel->stats();
        QCOMPARE(stats.activity_count, count);
        QCOMPARE(stats.work_ns, work);
        QCOMPARE(stats.durationNs(), t1 - t0);
        QCOMPARE(stats.busy.size(), std::size_t(1));
        QVERIFY(stats.busy[0].busy_ns > 0);
        QVERIFY(static_cast<double>(stats.busy[0].busy_ns) <= t1 - t0);
        // The busy time is the window's share of the device's union of work.
        QCOMPARE(static_cast<double>(stats.busy[0].busy_ns),
                 std::round(d.deviceBusy()[0].busyNs(std::ceil(t0), std::ceil(t1))));
        QVERIFY2(panel->summaryText().contains(QString::number(count)),
                 qPrintable(panel->summaryText()));

        // The table: one row per name, sortable through its proxy.
        QCOMPARE(panel->model()->rowCount(), static_cast<int>(stats.kernels.size()));
        std::int64_t rows_total = 0;
        for (const auto& k : stats.kernels)
            rows_total += k.count;
        QCOMPARE(rows_total, count);
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(panel->table()->model());
        QVERIFY(proxy);
        panel->table()->sortByColumn(KernelStatsModel::Count, Qt::AscendingOrder);
        for (int r = 1; r < proxy->rowCount(); ++r)
            QVERIFY(proxy->index(r - 1, KernelStatsModel::Count)
                        .data(KernelStatsModel::SortRole)
                        .toLongLong() <= proxy->index(r, KernelStatsModel::Count)
                                             .data(KernelStatsModel::SortRole)
                                             .toLongLong());
        // The Kernels tab follows the range, as before.
        QCOMPARE(window.kernelModel()->rowCount(), panel->model()->rowCount());

        // Esc clears the range, hides and empties the panel, and brings the run back.
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Escape);
        QVERIFY(!view->state().range);
        QVERIFY(!panel->isVisible());
        QCOMPARE(panel->model()->rowCount(), 0);
        QCOMPARE(panel->stats().activity_count, std::int64_t(0));
        QCOMPARE(window.kernelModel()->rowCount(), whole_run_rows);
    }

    // --- ruler and times ----------------------------------------------------------

    void rulerLabelsAreNeverCut_data() {
        QTest::addColumn<double>("tickX");  // where the 145.6 ms tick lies, data-area px
        QTest::addColumn<QString>("firstLabel");
        QTest::newRow("tick on the left edge") << 0.0 << "145.6 ms";
        QTest::newRow("tick 2 px in") << 2.0 << "145.6 ms";
        QTest::newRow("tick 40 px in") << 40.0 << "145.6 ms";
        // Its label would start left of the data area: left out, not cut to "45.6 ms".
        QTest::newRow("tick 5 px out") << -5.0 << "145.7 ms";
    }
    void rulerLabelsAreNeverCut() {
        QFETCH(double, tickX);
        QFETCH(QString, firstLabel);
        auto t = gpuTrace();
        kernelAt(t, 0, 0, 10, "first");
        kernelAt(t, 0, 200'000'000, 200'000'010, "last");
        const auto d = TimelineData::build(std::move(t));
        TimelineViewState s;
        // 800 ns/px: ticks every 0.1 ms; 145.6 ms lands at tickX.
        const int widget_width = 1200;
        s.mapping = TimeAxisMapping(145.6e6 - tickX * 800.0, 800.0,
                                    TimelineRenderer::dataWidth(widget_width));
        QFont font = QApplication::font();
        const QFontMetrics fm(font);
        const auto ticks = TimelineRenderer::rulerTicks(*d, s, widget_width, fm);
        QVERIFY(ticks.size() >= 5);
        const auto first = std::find_if(ticks.begin(), ticks.end(),
                                        [](const RulerTick& k) { return !k.label.isEmpty(); });
        QVERIFY(first != ticks.end());
        QCOMPARE(first->label, firstLabel);
        QVERIFY(first->label_rect.left() < TimelineRenderer::kLabelWidth + 130);
        for (const RulerTick& k : ticks) {
            if (k.label.isEmpty())
                continue;
            QVERIFY2(k.label_rect.left() >= TimelineRenderer::kLabelWidth, qPrintable(k.label));
            QVERIFY2(k.label_rect.right() < widget_width, qPrintable(k.label));
            QCOMPARE(k.label_rect.width(), fm.horizontalAdvance(k.label));
            QVERIFY(k.label.endsWith(QLatin1String(" ms")));
        }
    }

    void tooltipTimesHaveTheTracesPrecision_data() {
        QTest::addColumn<std::int64_t>("start");
        QTest::addColumn<std::int64_t>("end");
        QTest::addColumn<QString>("startText");
        QTest::addColumn<QString>("durationText");
        QTest::newRow("ns trace") << std::int64_t(145'612'345) << std::int64_t(145'613'346)
                                  << "145.612345 ms"
                                  << "1.001 µs";
        QTest::newRow("integer-µs trace (Kineto 1.x)")
            << std::int64_t(145'612'000) << std::int64_t(145'642'000) << "145.612 ms"
            << "30 µs";
        QTest::newRow("seconds") << std::int64_t(3'000'000'007) << std::int64_t(3'000'000'020)
                                 << "3.000000007 s"
                                 << "13 ns";
    }
    void tooltipTimesHaveTheTracesPrecision() {
        QFETCH(std::int64_t, start);
        QFETCH(std::int64_t, end);
        QFETCH(QString, startText);
        QFETCH(QString, durationText);
        auto t = gpuTrace();
        kernelAt(t, 0, 0, 1000, "first");
        kernelAt(t, 0, start, end, "k");
        TimelineView view;
        view.resize(1000, 300);
        view.setData(TimelineData::build(std::move(t)));
        DrawItem item;
        item.first = 1;
        const QString tip = view.describe(item);
        QVERIFY2(tip.contains(QStringLiteral("<td>%1</td>").arg(startText)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("<td>%1</td>").arg(durationText)), qPrintable(tip));
    }

    void timesReadFromAChosenOrigin() {
        auto t = gpuTrace();
        kernelAt(t, 0, 0, 100, "first");
        kernelAt(t, 0, 1'000'000, 1'002'000, "step_kernel");
        kernelAt(t, 0, 1'003'501, 1'004'000, "later");  // 1 ns resolution
        TimelineView view;
        view.resize(1000, 300);
        const auto d = TimelineData::build(std::move(t));
        view.setData(d);
        view.zoomToActivity(1);  // select the kernel that starts "the step"
        QTest::keyClick(&view, Qt::Key_O);
        QCOMPARE(view.state().origin_ns, std::optional<std::int64_t>(1'000'000));
        DrawItem later;
        later.first = 2;
        QVERIFY2(view.describe(later).contains(QStringLiteral("<td>3.501 µs</td>")),
                 qPrintable(view.describe(later)));
        DrawItem first;
        first.first = 0;
        QVERIFY2(view.describe(first).contains(QLatin1String("<td>-1.000000 ms</td>")),
                 qPrintable(view.describe(first)));
        // The ruler counts from the origin: a tick reads 0 exactly where it lies.
        const auto ticks = TimelineRenderer::rulerTicks(*d, view.state(), 1000,
                                                        QFontMetrics(QApplication::font()));
        const auto zero = std::find_if(ticks.begin(), ticks.end(), [](const RulerTick& k) {
            return k.label.startsWith(QLatin1String("0 ")) ||
                   k.label.startsWith(QLatin1String("0.0"));
        });
        QVERIFY(zero != ticks.end());
        QVERIFY(std::abs(zero->x - view.state().mapping.mapTimeToX(1'000'000)) < 0.5);
        // Shift+O goes back to the trace's start.
        QTest::keyClick(&view, Qt::Key_O, Qt::ShiftModifier);
        QVERIFY(!view.state().origin_ns);
        QVERIFY(view.describe(later).contains(QLatin1String("<td>1.003501 ms</td>")));
    }

    // --- names --------------------------------------------------------------------

    void kernelNamesShowShortTheFullNameStaysInTheTooltip() {
        auto t = gpuTrace();
        kernelAt(t, 0, 0, 1000, kLongName);
        profiler::Activity copy;
        copy.kind = profiler::ActivityKind::Memcpy;
        copy.start_ns = 2000;
        copy.end_ns = 3000;
        copy.name = t.strings.intern("Memcpy HtoD (Pageable -> Device)");
        t.activities.push_back(copy);
        const auto d = TimelineData::build(std::move(t));
        QCOMPARE(d->label(d->activity(0).name), QStringLiteral("vectorized_elementwise_kernel"));
        QCOMPARE(d->label(d->activity(1).name), QStringLiteral("Memcpy HtoD (Pageable -> Device)"));
        TimelineView view;
        view.resize(1000, 300);
        view.setData(d);
        DrawItem item;
        const QString tip = view.describe(item);
        QVERIFY(tip.startsWith(QLatin1String("<b>vectorized_elementwise_kernel</b>")));
        QVERIFY(tip.contains(QString::fromLatin1(kLongName).toHtmlEscaped()));

        // The Kernels tab and compare show the same short name; grouping is by full name.
        KernelStat k;
        k.name = QString::fromLatin1(kLongName);
        k.category = Category::Elementwise;
        k.count = 3;
        KernelStat c;
        c.name = QStringLiteral("Memcpy HtoD (Pageable -> Device)");
        c.category = Category::Memcpy;
        KernelStatsModel stats;
        stats.setStats({k, c});
        QCOMPARE(stats.index(0, KernelStatsModel::Name).data().toString(),
                 QStringLiteral("vectorized_elementwise_kernel"));
        QCOMPARE(stats.index(0, KernelStatsModel::Name).data(Qt::ToolTipRole).toString(), k.name);
        QCOMPARE(stats.index(1, KernelStatsModel::Name).data().toString(), c.name);
        // Compare's kernels diff compares kernels by their qualified name without template
        // arguments and parameters (profiler::normalize_kernel_name, as `trainscope diff`):
        // another instantiation of the kernel is the same row, which says so.
        auto b = gpuTrace();
        kernelAt(b, 0, 0, 1000, kLongName);
        kernelAt(b, 0, 2000, 2500, "void at::native::vectorized_elementwise_kernel<2, float>(int)");
        TraceDiffModel diff;
        diff.setDiff(profiler::diff_traces(d->trace(), b));
        int kernel_row = -1;
        for (int r = 0; r < diff.rowCount(); ++r) {
            if (diff.index(r, TraceDiffModel::Category).data().toString() !=
                QLatin1String("memcpy/memset"))
                kernel_row = r;
        }
        QVERIFY(kernel_row >= 0);
        QCOMPARE(diff.index(kernel_row, TraceDiffModel::Name).data().toString(),
                 QStringLiteral("at::native::vectorized_elementwise_kernel"));
        QCOMPARE(diff.index(kernel_row, TraceDiffModel::CountB).data().toLongLong(), 2);
        QVERIFY(diff.index(kernel_row, TraceDiffModel::Name)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("2 recorded name(s)")));
    }

    // --- search and flows ---------------------------------------------------------

    void searchSaysWhichMatchOfHowMany() {
        TimelineView view;
        view.resize(1000, 400);
        const auto d = TimelineData::build(testing::makeTrace({500, 1.0, 5}));
        view.setData(d);
        QSignalSpy spy(&view, &TimelineView::searchStatusChanged);
        std::size_t expected = 0;
        for (const std::uint32_t idx : d->gpuWorkByStart())
            expected += d->name(d->activity(idx).name).contains(QLatin1String("sgemm")) ? 1 : 0;
        QVERIFY(expected > 3);
        view.setSearchText(QStringLiteral("SGEMM"));
        QCOMPARE(view.searchStatus(), QStringLiteral("%1 matches").arg(expected));
        view.findNext();
        QCOMPARE(view.searchStatus(), QStringLiteral("1 of %1").arg(expected));
        view.findNext();
        view.findNext();
        QCOMPARE(view.searchStatus(), QStringLiteral("3 of %1").arg(expected));
        QCOMPARE(spy.last().at(0).toString(), view.searchStatus());
        view.findPrevious();
        QCOMPARE(view.searchStatus(), QStringLiteral("2 of %1").arg(expected));
        view.setSearchText(QStringLiteral("no_kernel_is_called_this"));
        QCOMPARE(view.searchStatus(), QStringLiteral("no matches"));
        QCOMPARE(spy.last().at(0).toString(), QStringLiteral("no matches"));
        view.setSearchText(QString());
        QCOMPARE(view.searchStatus(), QString());
    }

    void fFollowsTheFlowArrowToItsOtherEnd() {
        TimelineView view;
        view.resize(1000, 400);
        const auto d = TimelineData::build(testing::makeTrace({500, 1.0, 5}));
        view.setData(d);
        const auto api = firstActivity(*d, profiler::ActivityKind::RuntimeApi,
                                       QStringLiteral("cudaLaunchKernel"));
        QVERIFY(api);
        view.zoomToActivity(*api);
        const auto kernel = view.state().flow_to;
        QVERIFY(kernel);
        // Zoomed so far in that the kernel is off screen: F brings it into view.
        view.setMapping(TimeAxisMapping(static_cast<double>(d->activity(*api).start_ns), 0.01,
                                        view.state().mapping.width()));
        QTest::keyClick(&view, Qt::Key_F);
        QCOMPARE(view.state().selected, kernel);
        const auto& k = d->activity(*kernel);
        QVERIFY(view.state().mapping.startNs() <= static_cast<double>(k.end_ns));
        QVERIFY(view.state().mapping.endNs() >= static_cast<double>(k.start_ns));
        QCOMPARE(view.state().mapping.nsPerPixel(), 0.01);  // the zoom stays
        QTest::keyClick(&view, Qt::Key_F);
        QCOMPARE(view.state().selected, api);
    }

    // --- layout and painting -------------------------------------------------------

    void deviceRowsStayPinnedWhileHostRowsScroll() {
        TimelineView view;
        view.resize(1000, 420);
        // A host thread with a 20-deep stack of ops (a Python stack) below the GPU.
        auto t = testing::makeTrace({500, 1.0, 5});
        const auto lane = t.add_lane({profiler::LaneKind::HostThread, -1, 99, 1, "deep"});
        for (int depth = 0; depth < 20; ++depth) {
            profiler::Activity op;
            op.kind = profiler::ActivityKind::HostOp;
            op.lane = lane;
            op.start_ns = depth * 10;
            op.end_ns = 10'000'000 - depth * 10;
            op.depth = static_cast<std::uint16_t>(depth);
            op.name = t.strings.intern("frame " + std::to_string(depth));
            t.activities.push_back(op);
        }
        const auto d = TimelineData::build(std::move(t));
        view.setData(d);
        const TimelineViewState& s = view.state();
        QVERIFY(s.pinned_rows > 0);
        QVERIFY(s.pinned_height > 0);
        const auto& rows = d->rows();
        for (int r = 0; r < s.pinned_rows; ++r)
            QVERIFY(rows[static_cast<std::size_t>(r)].lane_kind == profiler::LaneKind::GpuStream ||
                    rows[static_cast<std::size_t>(r)].device >= 0);
        const int stream_y = TimelineRenderer::rowScreenTop(*d, s, 0) + 8;
        const QImage before = view.renderImage(QSize(1000, 420));
        // Scroll the host stacks all the way down.
        for (int i = 0; i < 40; ++i)
            QTest::keyClick(&view, Qt::Key_PageDown);
        QVERIFY(s.scroll_y > 0);
        QCOMPARE(TimelineRenderer::rowScreenTop(*d, s, 0) + 8, stream_y);
        QCOMPARE(TimelineRenderer::rowAt(*d, s, stream_y), 0);
        std::vector<DrawItem> list;
        TimelineRenderer::buildDrawList(*d, s, QSize(1000, 420), list);
        QVERIFY(
            std::any_of(list.begin(), list.end(), [](const DrawItem& i) { return i.row == 0; }));
        // No host row is drawn under the pinned ones.
        for (const DrawItem& i : list) {
            if (i.row >= s.pinned_rows)
                QVERIFY(TimelineRenderer::rowScreenTop(*d, s, static_cast<std::size_t>(i.row)) +
                            TimelineData::kRowHeight >
                        TimelineRenderer::kRulerHeight + s.pinned_height);
        }
        // The pinned rows paint the same pixels as before the scroll.
        const QImage after = view.renderImage(QSize(1000, 420));
        const QRect pinned(0, TimelineRenderer::kRulerHeight, 1000, s.pinned_height - 2);
        QCOMPARE(after.copy(pinned), before.copy(pinned));
        QVERIFY(after != before);  // while the host rows did move
    }

    void foldedBlocksLookDifferentFromOneLongEvent() {
        auto t = gpuTrace();
        // 200 tiny conv kernels over 2 us, and one 2 us conv kernel later, at 100 ns/px:
        // a fold of 20 px... capped at 12 px per fold, then one 20 px event.
        for (int i = 0; i < 200; ++i)
            kernelAt(t, 0, 10'000 + i * 10, 10'000 + i * 10 + 5, "implicit_convolve_sgemm");
        kernelAt(t, 0, 20'000, 22'000, "implicit_convolve_sgemm");
        kernelAt(t, 0, 0, 1, "first");
        const auto d = TimelineData::build(std::move(t));
        TimelineViewState s;
        s.mapping = TimeAxisMapping(0.0, 100.0, 790);
        const QSize size(1000, 200);
        QImage image(size, QImage::Format_RGB32);
        QPainter p(&image);
        std::vector<DrawItem> list;
        TimelineRenderer::paint(p, *d, s, size, list);
        p.end();
        const auto fold = std::find_if(list.begin(), list.end(), [](const DrawItem& i) {
            return i.kind == DrawKind::Fold && i.w >= 10;
        });
        const auto event = std::find_if(list.begin(), list.end(), [](const DrawItem& i) {
            return i.kind == DrawKind::Event && i.begin == 20'000;
        });
        QVERIFY(fold != list.end());
        QVERIFY(event != list.end());
        const int top = TimelineRenderer::rowScreenTop(*d, s, 0) + 3;
        auto inside = [&](const DrawItem& i) {
            const int x = TimelineRenderer::kLabelWidth + static_cast<int>(std::ceil(i.x));
            return QRect(x + 2, top, static_cast<int>(i.w) - 4, TimelineData::kRowHeight - 8);
        };
        const QSet<QRgb> fold_colours = coloursIn(image, inside(*fold));
        const QSet<QRgb> event_colours = coloursIn(image, inside(*event));
        QCOMPARE(event_colours.size(), 1);  // a long event: one flat colour
        QVERIFY2(fold_colours.size() >= 2, "a fold is hatched");
        QVERIFY(!fold_colours.contains(*event_colours.begin()));
        // The legend's "folded" swatch is painted the same way: both hatch colours show.
        const QRect legend(0, size.height() - TimelineRenderer::kLegendHeight, size.width(),
                           TimelineRenderer::kLegendHeight);
        const QSet<QRgb> legend_colours = coloursIn(image, legend);
        for (const QRgb c : fold_colours)
            QVERIFY2(legend_colours.contains(c), qPrintable(QString::number(c, 16)));
    }

    void tooltipsLeaveWhenTheViewMoves() {
        auto t = gpuTrace();
        kernelAt(t, 0, 0, 1'000'000, "implicit_convolve_sgemm");
        TimelineView view;
        view.resize(1000, 300);
        view.setData(TimelineData::build(std::move(t)));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.repaint();  // leaves the draw list for hit-testing
        const QPoint pos(TimelineRenderer::kLabelWidth + 300,
                         TimelineRenderer::rowScreenTop(*view.data(), view.state(), 0) + 8);
        auto show_tip = [&] {
            QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
            QApplication::sendEvent(&view, &help);
            QTRY_VERIFY(QToolTip::isVisible());
        };
        show_tip();
        view.panBy(0.1);
        QTRY_VERIFY(!QToolTip::isVisible());
        view.repaint();
        show_tip();
        view.zoomBy(0.5);
        QTRY_VERIFY(!QToolTip::isVisible());
    }

  private:
    QTemporaryDir dir_;
    QString db_;
    std::int64_t main_run_ = 0;
};

QTEST_MAIN(TestTimelineUx)
#include "tst_timeline_ux.moc"
