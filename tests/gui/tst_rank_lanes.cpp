// A distributed job's timeline on the real multi-rank traces of ../shared/traces/multirank:
// the lanes grouped per rank under headers, a rank folded into one summary row (by a
// click on its header, by R for all but the selected rank, unfolded by Shift+R or by
// showing one of its events), and a collective clicked on one rank highlighted on every
// rank with the spread of the arrivals and each rank's wait.
#include <QApplication>
#include <QHelpEvent>
#include <QImage>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "gui/app/MainWindow.hpp"
#include "gui/app/Theme.hpp"
#include "gui/timeline/StragglerPanel.hpp"
#include "gui/timeline/TimeFormat.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimelineRenderer.hpp"
#include "gui/timeline/TimelineView.hpp"
#include "profiler/trace/LaneRegistry.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "tests/gui/GuiTestUtil.hpp"
#include "tests/gui/RankLaneTestUtil.hpp"
#include "tests/profiler/MultiRankFixtures.hpp"

using namespace trainscope;
using namespace trainscope::gui;
using namespace trainscope::gui::testing;
using R = TimelineRenderer;

namespace {

// Every collective call of the job grouped into collectives from the raw calls: these
// fixtures carry no sequence numbers, so the n-th call of a (group, kind) on each rank is
// one collective (the matching the GUI must agree with, computed here independently).
std::vector<std::vector<const profiler::CollectiveCall*>> collectivesByOrder(
    const profiler::Trace& t) {
    std::map<std::tuple<profiler::StringId, int, std::int32_t>,
             std::vector<const profiler::CollectiveCall*>>
        per_rank;
    for (const auto& c : t.collectives) {
        if (c.sequence >= 0)
            qFatal("a fixture with sequence numbers: match by them here");
        per_rank[{c.group, static_cast<int>(c.kind), c.rank}].push_back(&c);
    }
    std::map<std::tuple<profiler::StringId, int, std::size_t>,
             std::vector<const profiler::CollectiveCall*>>
        matched;
    for (auto& [key, calls] : per_rank) {
        std::sort(calls.begin(), calls.end(),
                  [](const auto* a, const auto* b) { return a->start_ns < b->start_ns; });
        for (std::size_t i = 0; i < calls.size(); ++i)
            matched[{std::get<0>(key), std::get<1>(key), i}].push_back(calls[i]);
    }
    std::vector<std::vector<const profiler::CollectiveCall*>> out;
    for (auto& [key, calls] : matched)
        out.push_back(std::move(calls));
    return out;
}

// The activity a call lies on: its communication kernel.
std::uint32_t activityOf(const TimelineData& d, const profiler::CollectiveCall& c) {
    for (std::uint32_t i = 0; i < d.activityCount(); ++i) {
        const auto& a = d.activity(i);
        if (a.lane == c.lane && a.start_ns == c.start_ns && a.end_ns == c.end_ns)
            return i;
    }
    qFatal("call without an activity");
}

bool hasColourNear(const QImage& image, QPoint p, const QColor& colour, int radius = 1) {
    for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
            const QPoint q = p + QPoint(dx, dy);
            if (image.rect().contains(q) && image.pixelColor(q).rgb() == colour.rgb())
                return true;
        }
    }
    return false;
}

}  // namespace

class TestRankLanes : public QObject {
    Q_OBJECT
  private slots:
    // Every rank's lanes together, in rank order, each group under its header; a
    // one-process trace gets no headers and keeps its pinned device rows.
    void lanesAreGroupedUnderOneHeaderPerRank() {
        const auto d = jobTimeline("param_dlrm_kineto");
        TimelineView view;
        view.resize(1400, 900);
        view.setData(d);
        const RankLaneGroups& groups = view.rankGroups();
        QVERIFY(groups.active());
        QCOMPARE(groups.groups().size(), std::size_t(8));
        // Lanes with activities per rank, counted from the trace.
        std::map<int, std::set<profiler::LaneId>> lanes_of;
        for (const auto& a : d->trace().activities)
            lanes_of[d->trace().lanes[a.lane].rank].insert(a.lane);
        const auto& rows = d->rows();
        const auto& headers = view.state().rank_headers;
        QCOMPARE(headers.size(), std::size_t(8));
        QCOMPARE(view.state().pinned_rows, 0);  // headers scroll with their ranks
        for (std::size_t g = 0; g < headers.size(); ++g) {
            const RankHeader& h = headers[g];
            QCOMPARE(h.rank, static_cast<int>(g));
            QVERIFY(!h.collapsed);
            QCOMPARE(h.lanes, static_cast<int>(lanes_of[h.rank].size()));
            // The rank's rows are its lanes' rows, all of them, below its header and
            // above the next one.
            const int next_top =
                g + 1 < headers.size() ? headers[g + 1].top : R::contentHeight(*d, view.state());
            std::size_t rows_of_rank = 0;
            for (std::size_t r = 0; r < rows.size(); ++r) {
                if (rankOfRow(*d, r) != h.rank)
                    continue;
                ++rows_of_rank;
                QVERIFY(r >= h.first_row && r < h.end_row);
                const int top = R::contentTop(*d, view.state(), r);
                if (top < 0)
                    continue;  // a deep host stack, folded as before
                QVERIFY2(
                    top >= h.top + TimelineData::kRowHeight && top < next_top,
                    qPrintable(
                        QStringLiteral("row %1 of rank %2 at %3").arg(r).arg(h.rank).arg(top)));
            }
            QCOMPARE(rows_of_rank, h.end_row - h.first_row);
        }
        // The header is painted: its mark in the highlight colour at the left edge.
        const QImage image = paintOf(view);
        const int y0 = RankLaneGroups::headerScreenTop(view.state(), headers[0]);
        QCOMPARE(image.pixelColor(1, y0 + 5).rgb(), Theme::get(true).highlight.rgb());

        // One process: as before, no headers.
        profiler::Trace one;
        profiler::LaneRegistry lanes(one);
        const auto s = lanes.gpu_stream(0, 7);
        testing::kernelAt(one, s, 0, 100, "sgemm");
        lanes.finish();
        view.setData(TimelineData::build(one));
        QVERIFY(!view.rankGroups().active());
        QVERIFY(view.state().rank_headers.empty());
    }

    // A click on a header folds the rank into its summary row (all its GPU work in one
    // row) and the ranks below move up by exactly its lanes' height; a second click
    // brings the layout back.
    void clickingAHeaderFoldsTheRankIntoASummaryRow() {
        const auto d = jobTimeline("param_dlrm_kineto");
        TimelineView view;
        view.resize(1400, 900);
        view.setData(d);
        view.zoomToFit();
        const TimelineViewState before = view.state();
        const RankHeader h1 = headerOf(view, 1);
        const int block = headerOf(view, 2).top - h1.top;  // header + lanes
        // Its tooltip says what a click does.
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QHelpEvent help(QEvent::ToolTip, headerLabelPoint(view, 1),
                        view.mapToGlobal(headerLabelPoint(view, 1)));
        QApplication::sendEvent(&view, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("<b>rank 1</b> · 8 lanes")) &&
                     QToolTip::text().contains(QStringLiteral("click to fold")),
                 qPrintable(QToolTip::text()));
        QToolTip::hideText();
        QTest::mouseClick(&view, Qt::LeftButton, {}, headerLabelPoint(view, 1));
        const RankHeader& folded = headerOf(view, 1);
        QVERIFY(folded.collapsed);
        QVERIFY(view.rankGroups().collapsed(1));
        for (std::size_t r = h1.first_row; r < h1.end_row; ++r)
            QCOMPARE(R::contentTop(*d, view.state(), r), -1);
        const int shrink = block - (TimelineData::kRowHeight + TimelineData::kLaneGap);
        QCOMPARE(headerOf(view, 2).top, h1.top + TimelineData::kRowHeight + TimelineData::kLaneGap);
        QCOMPARE(R::contentHeight(*d, view.state()), R::contentHeight(*d, before) - shrink);
        for (std::size_t r = h1.end_row; r < d->rows().size(); ++r) {
            const int was = R::contentTop(*d, before, r);
            QCOMPARE(R::contentTop(*d, view.state(), r), was < 0 ? -1 : was - shrink);
        }
        // The summary holds every GPU event of rank 1, counted from the trace.
        std::size_t gpu_events = 0;
        for (const auto& a : d->trace().activities) {
            const auto& lane = d->trace().lanes[a.lane];
            gpu_events += lane.rank == 1 && lane.kind == profiler::LaneKind::GpuStream ? 1 : 0;
        }
        QVERIFY(folded.summary);
        QCOMPARE(folded.summary->events.size(), gpu_events);
        QVERIFY(std::is_sorted(
            folded.summary->events.begin(), folded.summary->events.end(),
            [](const TimelineEvent& a, const TimelineEvent& b) { return a.start < b.start; }));
        // ... and is painted in the header row: the longest event's colour at its middle.
        const TimelineEvent longest = longestEvent(*folded.summary);
        view.zoomToActivity(longest.activity);
        view.setRankCollapsed(1, true);  // showing it unfolded the rank
        view.clearSelection();
        const QImage image = paintOf(view);
        const int x = R::kLabelWidth + static_cast<int>(view.state().mapping.mapTimeToX(
                                           static_cast<double>(longest.start + longest.end) / 2));
        const int y = RankLaneGroups::headerScreenTop(view.state(), headerOf(view, 1)) +
                      TimelineData::kRowHeight / 2;
        QCOMPARE(image.pixelColor(x, y).rgb(), R::eventColor(*d, longest).rgb());

        // Click again: unfolded, the layout as before.
        QTest::mouseClick(&view, Qt::LeftButton, {}, headerLabelPoint(view, 1));
        QVERIFY(!view.rankGroups().collapsed(1));
        QCOMPARE(view.state().row_tops, before.row_tops);
        QCOMPARE(R::contentHeight(*d, view.state()), R::contentHeight(*d, before));
    }

    // R folds every rank but the selected event's; Shift+R unfolds them all; showing an
    // event of a folded rank (find, Kernels tab) unfolds its rank.
    void rFoldsAllButTheSelectedRank() {
        const auto d = jobTimeline("param_dlrm_kineto");
        const profiler::Trace& t = d->trace();
        const auto call5 = std::find_if(t.collectives.begin(), t.collectives.end(),
                                        [](const auto& c) { return c.rank == 5; });
        QVERIFY(call5 != t.collectives.end());
        TimelineView view;
        view.resize(1400, 900);
        view.setData(d);
        view.zoomToActivity(activityOf(*d, *call5));
        QTest::keyClick(&view, Qt::Key_R);
        for (const RankHeader& h : view.state().rank_headers)
            QCOMPARE(h.collapsed, h.rank != 5);
        // Eight header rows and rank 5's lanes: the whole job fits on one screen now.
        QVERIFY(R::contentHeight(*d, view.state()) <= R::viewportHeight(view.height()));
        const auto call2 = std::find_if(t.collectives.begin(), t.collectives.end(),
                                        [](const auto& c) { return c.rank == 2; });
        view.zoomToActivity(activityOf(*d, *call2));
        QVERIFY(!view.rankGroups().collapsed(2));
        QVERIFY(view.rankGroups().collapsed(3));
        QTest::keyClick(&view, Qt::Key_R, Qt::ShiftModifier);
        for (const RankHeader& h : view.state().rank_headers)
            QVERIFY(!h.collapsed);
    }

    // Clicking a collective's kernel on one rank highlights the same collective on every
    // rank; the status bar and the tooltip give the spread of the arrivals, the
    // straggler and each rank's wait, as the raw calls say.
    void clickedCollectiveIsHighlightedOnEveryRank_data() {
        QTest::addColumn<QString>("set");
        QTest::addColumn<int>("ranks");
        QTest::newRow("param_dlrm_kineto (8 ranks)") << QStringLiteral("param_dlrm_kineto") << 8;
        QTest::newRow("hta_trace_filter_sampled (2 of 128)")
            << QStringLiteral("hta_trace_filter_sampled") << 2;
    }
    void clickedCollectiveIsHighlightedOnEveryRank() {
        QFETCH(QString, set);
        QFETCH(int, ranks);
        const auto d = jobTimeline(set.toStdString());
        const profiler::Trace& t = d->trace();
        // The raw calls of one collective: the one with the widest spread of arrivals.
        const auto collectives = collectivesByOrder(t);
        const std::vector<const profiler::CollectiveCall*>* pick = nullptr;
        std::int64_t widest = -1;
        for (const auto& calls : collectives) {
            if (static_cast<int>(calls.size()) != ranks)
                continue;
            const auto [lo, hi] = std::minmax_element(
                calls.begin(), calls.end(),
                [](const auto* a, const auto* b) { return a->start_ns < b->start_ns; });
            if ((*hi)->start_ns - (*lo)->start_ns > widest) {
                widest = (*hi)->start_ns - (*lo)->start_ns;
                pick = &calls;
            }
        }
        QVERIFY2(pick, "a collective joined by every rank");
        const profiler::CollectiveCall* last = pick->front();
        const profiler::CollectiveCall* first = pick->front();
        for (const auto* c : *pick) {
            if (c->start_ns > last->start_ns ||
                (c->start_ns == last->start_ns && c->rank < last->rank))
                last = c;
            if (c->start_ns < first->start_ns)
                first = c;
        }
        const profiler::CollectiveCall* clicked =
            pick->front()->rank == last->rank ? pick->back() : pick->front();

        TimelineView view;
        view.resize(1400, 900);
        view.setData(d);
        const std::uint32_t target = activityOf(*d, *clicked);
        view.show();  // clicks hit-test the draw list of the last paint
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.zoomToActivity(target);  // zoomed and scrolled to it
        view.clearSelection();
        view.repaint();
        QVERIFY(view.state().collective.empty());
        QSignalSpy status(&view, &TimelineView::statusMessage);
        const auto& a = d->activity(target);
        const int x = R::kLabelWidth + static_cast<int>(view.state().mapping.mapTimeToX(
                                           static_cast<double>(a.start_ns + a.end_ns) / 2));
        const int y =
            R::rowScreenTop(*d, view.state(), static_cast<std::size_t>(d->rowOf(target))) +
            TimelineData::kRowHeight / 2;
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(x, y));
        QCOMPARE(view.state().selected, std::optional<std::uint32_t>(target));

        // Every rank's instance, its arrival and wait.
        const CollectiveSelection& sel = view.state().collective;
        QCOMPARE(static_cast<int>(sel.instances.size()), ranks);
        QCOMPARE(sel.matched.last_rank, last->rank);
        QCOMPARE(sel.spreadNs(), last->start_ns - first->start_ns);
        for (const profiler::CollectiveCall* c : *pick) {
            const auto it = std::find_if(sel.instances.begin(), sel.instances.end(),
                                         [&](const auto& i) { return i.rank == c->rank; });
            QVERIFY(it != sel.instances.end());
            QCOMPARE(it->activity, activityOf(*d, *c));
            QCOMPARE(it->wait_ns, last->start_ns - c->start_ns);
        }
        // The status bar says it.
        QVERIFY(!status.isEmpty());
        const QString said = status.last().at(0).toString();
        const std::int64_t res = d->resolutionNs();
        QVERIFY2(said.contains(QStringLiteral("arrivals spread over %1")
                                   .arg(formatTimeExact(last->start_ns - first->start_ns, res))),
                 qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("last rank %1 (the straggler)").arg(last->rank)),
                 qPrintable(said));
        for (const profiler::CollectiveCall* c : *pick) {
            QVERIFY2(said.contains(QStringLiteral("rank %1 %2")
                                       .arg(c->rank)
                                       .arg(formatTimeExact(last->start_ns - c->start_ns, res))),
                     qPrintable(said));
        }
        // So does the tooltip of the clicked kernel.
        std::vector<DrawItem> items;
        R::buildDrawList(*d, view.state(),
                         QSize(R::kLabelWidth + view.state().mapping.width(), view.height()),
                         items);
        const auto item = std::find_if(items.begin(), items.end(), [&](const DrawItem& i) {
            return i.kind == DrawKind::Event &&
                   d->rows()[static_cast<std::size_t>(i.row)].events[i.first].activity == target;
        });
        QVERIFY(item != items.end());
        const QString tip = view.describe(*item);
        QVERIFY2(tip.contains(QStringLiteral("last: rank %1 (the straggler)").arg(last->rank)),
                 qPrintable(tip));

        // Painted on every rank: with all other ranks folded and every arrival in view,
        // each one's instance is outlined in its summary row at its start; after Esc none.
        QTest::keyClick(&view, Qt::Key_R);
        std::int64_t end = 0;
        for (const auto* c : *pick)
            end = std::max(end, c->end_ns);
        const auto span = static_cast<double>(end - first->start_ns);
        view.setMapping(TimeAxisMapping::fit(static_cast<double>(first->start_ns) - span * 0.1,
                                             static_cast<double>(end) + span * 0.1,
                                             view.state().mapping.width()));
        std::vector<QPoint> edges;
        for (const profiler::CollectiveCall* c : *pick) {
            if (c == clicked)
                continue;  // the selection's own outline is the same colour
            const double xs = view.state().mapping.mapTimeToX(static_cast<double>(c->start_ns));
            const int top = RankLaneGroups::headerScreenTop(view.state(), headerOf(view, c->rank));
            edges.emplace_back(R::kLabelWidth + static_cast<int>(xs) - 1,
                               top + TimelineData::kRowHeight / 2);
        }
        QCOMPARE(static_cast<int>(edges.size()), ranks - 1);
        const QColor highlight = Theme::get(true).highlight;
        const QImage lit = paintOf(view);
        for (const QPoint& p : edges)
            QVERIFY2(hasColourNear(lit, p, highlight),
                     qPrintable(QStringLiteral("no outline at %1,%2").arg(p.x()).arg(p.y())));
        QTest::keyClick(&view, Qt::Key_Escape);
        QVERIFY(view.state().collective.empty());
        const QImage plain = paintOf(view);
        for (const QPoint& p : edges)
            QVERIFY(!hasColourNear(plain, p, highlight));
    }

    // The app's own path: the job stored as one run (as `trainscope import` stores it),
    // loaded by the main window; a click on a collective puts the spread and the waits
    // in the window's status bar.
    void theStoredJobShowsItsRanksInTheApp() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("job.db")).toStdString();
        std::int64_t run_id = 0;
        {
            reports::ResultsDatabase db(path, reports::OpenMode::CreateOrOpen);
            std::vector<reports::RunRecord> runs(1);
            runs[0].source = "kineto";
            runs[0].trace = profiler::testing::multirank_job("param_dlrm_kineto").trace;
            reports::RunWriter(db).create_matrix_with_runs({"import", "test", "0", "test"}, runs);
            run_id = runs[0].id;
        }
        MainWindow window;
        window.setRememberRecent(false);
        QVERIFY(window.openDatabase(QString::fromStdString(path)));
        QVERIFY(window.loadTraceNow(run_id > 0 ? run_id : window.tracedRuns().front()));
        auto* view = window.findChild<TimelineView*>();
        QVERIFY(view && view->data());
        QCOMPARE(view->rankGroups().groups().size(), std::size_t(8));
        QCOMPARE(view->state().rank_headers.size(), std::size_t(8));
        const profiler::Trace& t = view->data()->trace();
        QVERIFY(!t.collectives.empty());
        view->zoomToActivity(activityOf(*view->data(), t.collectives.front()));
        QCOMPARE(static_cast<int>(view->state().collective.instances.size()), 8);
        QVERIFY2(
            window.statusBar()->currentMessage().contains(QStringLiteral("arrivals spread over")),
            qPrintable(window.statusBar()->currentMessage()));
        // Double-clicking a rank in the straggler table shows that rank's lanes only.
        auto* panel = window.findChild<StragglerPanel*>();
        QVERIFY(panel && !panel->isHidden());
        auto* table = panel->findChild<QTableView*>();
        QVERIFY(table);
        const QAbstractItemModel* rows = table->model();
        for (int r = 0; r < rows->rowCount(); ++r) {
            const QModelIndex index = rows->index(r, StragglerTableModel::Rank);
            if (index.data(StragglerTableModel::SortRole).toInt() == 6)
                emit table->activated(index.sibling(r, StragglerTableModel::WaitCaused));
        }
        for (const RankHeader& h : view->state().rank_headers)
            QCOMPARE(h.collapsed, h.rank != 6);
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("rank 6 only")));
    }

    // Correlation ids count per process, so the ranks of a job reuse them (the eight
    // param ranks' ranges overlap): a launch's flow arrow must reach its own rank's
    // kernel, and a launch of a collective's kernel selects that collective.
    void flowArrowsStayWithinTheirRank() {
        const auto d = jobTimeline("param_dlrm_kineto");
        const profiler::Trace& t = d->trace();
        TimelineView view;
        view.resize(1400, 900);
        view.setData(d);
        int checked = 0;
        bool shared_ids = false;
        std::map<std::uint64_t, std::set<std::int32_t>> ranks_of_id;
        for (std::uint32_t i = 0; i < t.activities.size(); ++i) {
            const auto& a = t.activities[i];
            if (a.correlation == 0 || d->category(i) != Category::RuntimeApi)
                continue;
            auto& ranks = ranks_of_id[a.correlation];
            ranks.insert(t.lanes[a.lane].rank);
            shared_ids = shared_ids || ranks.size() > 1;
            view.zoomToActivity(i);
            if (!view.state().flow_to)
                continue;
            const auto& k = t.activities[*view.state().flow_to];
            QCOMPARE(k.correlation, a.correlation);
            QCOMPARE(t.lanes[k.lane].rank, t.lanes[a.lane].rank);
            ++checked;
        }
        QVERIFY(shared_ids);
        QVERIFY(checked > 1000);
        // The launch of rank 3's first collective kernel stands for it.
        const auto call = std::find_if(t.collectives.begin(), t.collectives.end(),
                                       [](const auto& c) { return c.rank == 3; });
        const std::uint32_t kernel = activityOf(*d, *call);
        std::optional<std::uint32_t> launch;
        for (std::uint32_t i = 0; i < t.activities.size() && !launch; ++i) {
            const auto& a = t.activities[i];
            if (a.correlation == d->details(kernel).correlation &&
                d->category(i) == Category::RuntimeApi && t.lanes[a.lane].rank == 3)
                launch = i;
        }
        QVERIFY(launch);
        view.zoomToActivity(*launch);
        QCOMPARE(view.state().flow_to, std::optional<std::uint32_t>(kernel));
        QCOMPARE(static_cast<int>(view.state().collective.instances.size()), 8);
    }

    // A trace on an absolute clock (CUPTI's, ~1.7e18 ns) is rebased when indexed; its
    // collectives move with their kernels, so a click still finds them on every rank.
    void collectivesOfARebasedTraceAreFound() {
        constexpr std::int64_t kClock = 1'700'000'000'000'000'000;
        profiler::Trace t;
        t.world_size = 2;
        std::vector<profiler::LaneId> lanes;
        for (std::int32_t rank = 0; rank < 2; ++rank) {
            profiler::LaneRegistry registry(t, rank);
            lanes.push_back(registry.gpu_stream(0, 9));
            const std::int64_t start = kClock + 1000 + 400 * rank;
            testing::kernelAt(t, lanes.back(), start, kClock + 5000,
                              "ncclKernel_AllReduce_RING_LL_Sum_float");
            profiler::CollectiveCall c;
            c.rank = rank;
            c.kind = profiler::CollectiveKind::AllReduce;
            c.lane = lanes.back();
            c.start_ns = start;
            c.end_ns = kClock + 5000;
            t.collectives.push_back(c);
            registry.finish();
        }
        const auto d = TimelineData::build(t);
        QCOMPARE(d->beginNs(), std::int64_t{0});  // rebased
        CollectiveIndex index;
        index.reset(d.get());
        const CollectiveSelection s = index.find(d->rows()[0].events[0].activity);
        QCOMPARE(s.instances.size(), std::size_t(2));
        QCOMPARE(s.spreadNs(), std::int64_t{400});
        QCOMPARE(s.matched.last_rank, 1);
        QCOMPARE(s.instances[0].wait_ns, std::int64_t{400});
        QCOMPARE(s.instances[1].wait_ns, std::int64_t{0});
    }

    // A non-collective kernel selects no collective (and the status bar names it).
    void otherKernelsHighlightNothing() {
        const auto d = jobTimeline("param_dlrm_kineto");
        TimelineView view;
        view.resize(1400, 900);
        view.setData(d);
        const auto& t = d->trace();
        std::optional<std::uint32_t> compute;
        for (std::uint32_t i = 0; i < t.activities.size() && !compute; ++i) {
            if (t.activities[i].kind == profiler::ActivityKind::Kernel &&
                !d->name(t.activities[i].name).startsWith(QStringLiteral("nccl")))
                compute = i;
        }
        QVERIFY(compute);
        view.zoomToActivity(*compute);
        QVERIFY(view.state().collective.empty());
    }
};

QTEST_MAIN(TestRankLanes)
#include "tst_rank_lanes.moc"
