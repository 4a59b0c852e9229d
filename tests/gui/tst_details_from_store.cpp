// A loaded timeline holds compact events only (issue 19): once loaded it keeps no
// profiler::Activity records and reads them from the database when a tooltip, the range
// panel, the Kernels tab or the diff needs them; every answer equals the one of a timeline
// built from the whole trace in memory.
#include <QApplication>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "gui/kernels/KernelStats.hpp"
#include "gui/loading/TraceLoader.hpp"
#include "gui/range/RangePanel.hpp"
#include "gui/range/RangeStats.hpp"
#include "gui/timeline/ActivityTooltip.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "profiler/analysis/TrainingSteps.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/TraceStore.hpp"
#include "tests/gui/CpuTraceGenerator.hpp"
#include "tests/gui/GuiTestUtil.hpp"
#include "tests/gui/TraceDbGenerator.hpp"

using namespace trainscope;
using namespace trainscope::gui;

namespace {

void compareStats(const std::vector<KernelStat>& got, const std::vector<KernelStat>& want) {
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].name, want[i].name);
        QCOMPARE(got[i].category, want[i].category);
        QCOMPARE(got[i].count, want[i].count);
        QCOMPARE(got[i].total_ns, want[i].total_ns);
        QCOMPARE(got[i].min_ns, want[i].min_ns);
        QCOMPARE(got[i].max_ns, want[i].max_ns);
        QCOMPARE(got[i].longest, want[i].longest);
        QCOMPARE(got[i].share, want[i].share);
    }
}

}  // namespace

class TestDetailsFromStore : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        path_ = dir_.filePath(QStringLiteral("r.db")).toStdString();
        run_ = testing::writeDatabase(path_, {30000, 0, 5});
        loaded_ = TraceLoader::loadNow(QString::fromStdString(path_), run_);
        QVERIFY(loaded_ != nullptr);
        const reports::ResultsDatabase db(path_, reports::OpenMode::ReadOnly);
        auto whole = reports::load_trace(db, run_);
        QVERIFY(whole.has_value());
        in_memory_ = TimelineData::build(std::move(*whole));
        QVERIFY(in_memory_ != nullptr);
    }

    // The loader lets the records go once the run-wide figures are made.
    void loadedTimelineHoldsNoRecords() {
        const TimelineData& d = *loaded_->timeline;
        QVERIFY(d.detailsInStore());
        QVERIFY(d.trace().activities.empty());
        QCOMPARE(d.memoryUse().activities, std::size_t{0});
        QCOMPARE(d.activityCount(), in_memory_->activityCount());
        QVERIFY(d.activityCount() > 60000);
        QVERIFY(!in_memory_->detailsInStore());
        // The run-wide kernel table was made from the records before they went.
        compareStats(loaded_->kernel_stats, computeKernelStats(*in_memory_));
    }

    // The rows are read one by one straight into the timeline's events (TimelineStream),
    // never all held as records, and the timeline is the one the whole trace gives: every
    // row and event, every activity's place, kind and category, the GPU work in start
    // order, the busy time, the extent and precision of the times, the run-wide figures.
    void rowsReadStraightIntoTheTimeline() {
        QVERIFY(!loaded_->read_whole);
        const TimelineData& d = *loaded_->timeline;
        const TimelineData& m = *in_memory_;
        QCOMPARE(d.rows().size(), m.rows().size());
        for (std::size_t r = 0; r < d.rows().size(); ++r) {
            const TimelineRow& got = d.rows()[r];
            const TimelineRow& want = m.rows()[r];
            QCOMPARE(got.lane, want.lane);
            QCOMPARE(got.depth, want.depth);
            QCOMPARE(got.label, want.label);
            QCOMPARE(got.top, want.top);
            QCOMPARE(got.device_lane, want.device_lane);
            QCOMPARE(got.max_end, want.max_end);
            QCOMPARE(got.lod.size(), want.lod.size());
            QCOMPARE(got.events.size(), want.events.size());
            for (std::size_t k = 0; k < got.events.size(); ++k) {
                const TimelineEvent& a = got.events[k];
                const TimelineEvent& b = want.events[k];
                QCOMPARE(std::make_tuple(a.start, a.end, a.activity, std::uint32_t{a.name}),
                         std::make_tuple(b.start, b.end, b.activity, std::uint32_t{b.name}));
                QCOMPARE(a.category(), b.category());
            }
        }
        QCOMPARE(d.activityCount(), m.activityCount());
        for (std::uint32_t i = 0; i < d.activityCount(); ++i) {
            QCOMPARE(d.rowOf(i), m.rowOf(i));
            QCOMPARE(d.activity(i).kind, m.activity(i).kind);
            QCOMPARE(d.category(i), m.category(i));
        }
        QCOMPARE(d.gpuWorkByStart(), m.gpuWorkByStart());
        QCOMPARE(d.beginNs(), m.beginNs());
        QCOMPARE(d.endNs(), m.endNs());
        QCOMPARE(d.resolutionNs(), m.resolutionNs());
        QCOMPARE(d.kernelCount(), m.kernelCount());
        QCOMPARE(d.contentHeight(), m.contentHeight());
        QCOMPARE(d.deviceBusy().size(), m.deviceBusy().size());
        QVERIFY(!d.deviceBusy().empty());
        const auto span = static_cast<double>(d.endNs() - d.beginNs());
        for (std::size_t b = 0; b < d.deviceBusy().size(); ++b) {
            QCOMPARE(d.deviceBusy()[b].device, m.deviceBusy()[b].device);
            for (const double f : {0.0, 0.13, 0.5, 0.77}) {
                const double t0 = static_cast<double>(d.beginNs()) + f * span;
                QCOMPARE(d.deviceBusy()[b].busyNs(t0, t0 + 0.2 * span),
                         m.deviceBusy()[b].busyNs(t0, t0 + 0.2 * span));
            }
        }
        QCOMPARE(d.memoryStacks().size(), m.memoryStacks().size());
        QCOMPARE(d.trace().collectives.size(), m.trace().collectives.size());
        QCOMPARE(d.trace().counters.size(), m.trace().counters.size());
        const reports::ResultsDatabase db(path_, reports::OpenMode::ReadOnly);
        const auto whole = reports::load_trace(db, run_);
        QVERIFY(whole.has_value());
        QVERIFY(loaded_->steps > 0);
        QCOMPARE(loaded_->steps, profiler::count_training_steps(*whole));
    }

    // The launch index pairs each GPU activity with the first API call of its rank and
    // correlation id, and each other activity with an id with the first GPU work of its
    // rank and id (the flow arrow, the tooltip's "launched by", the collective's launch).
    void launchesJoinAsTheirCorrelationIdsSay() {
        const TimelineData& d = *loaded_->timeline;
        const profiler::Trace& t = in_memory_->trace();
        using Key = std::pair<std::int32_t, std::uint64_t>;
        std::map<Key, std::uint32_t> first_work;
        std::map<Key, std::uint32_t> first_api;
        for (std::uint32_t i = 0; i < t.activities.size(); ++i) {
            const profiler::Activity& a = t.activities[i];
            if (a.correlation == 0)
                continue;
            const Key key{t.lanes[a.lane].rank, a.correlation};
            const Category c = in_memory_->category(i);
            if (is_gpu_work(c))
                first_work.emplace(key, i);
            else if (c == Category::RuntimeApi)
                first_api.emplace(key, i);
        }
        std::size_t joined = 0;
        for (std::uint32_t i = 0; i < t.activities.size(); ++i) {
            const profiler::Activity& a = t.activities[i];
            std::optional<std::uint32_t> want_launch;
            std::optional<std::uint32_t> want_work;
            if (a.correlation != 0) {
                const Key key{t.lanes[a.lane].rank, a.correlation};
                if (is_gpu_work(in_memory_->category(i))) {
                    if (const auto it = first_api.find(key); it != first_api.end())
                        want_launch = it->second;
                } else if (const auto it = first_work.find(key); it != first_work.end()) {
                    want_work = it->second;
                }
            }
            QCOMPARE(d.launchOf(i), want_launch);
            QCOMPARE(d.gpuWorkLaunchedBy(i), want_work);
            QCOMPARE(in_memory_->launchOf(i), want_launch);
            QCOMPARE(in_memory_->gpuWorkLaunchedBy(i), want_work);
            joined += want_launch || want_work ? 1 : 0;
        }
        QVERIFY(joined > 40000);
    }

    // The join's rule where ids repeat: within a rank the first API call (a runtime call
    // and the driver call under it share the id) launched every kernel of the id, and the
    // first kernel is what each of them launched; another rank's equal id is another
    // launch, whatever its rank (a rank of 2^30 is 0 in the 30 bits beside the role); a
    // sync with an id points at its work but launched nothing.
    void launchJoinTakesTheFirstOfItsRankAndId_data() {
        QTest::addColumn<std::int32_t>("other_rank");
        QTest::newRow("rank 1") << std::int32_t{1};
        QTest::newRow("rank 2^30") << std::int32_t{1 << 30};
        QTest::newRow("rank 2^31 - 1") << std::numeric_limits<std::int32_t>::max();
        QTest::newRow("rank -2^30") << std::int32_t{-(1 << 30)};
    }
    void launchJoinTakesTheFirstOfItsRankAndId() {
        QFETCH(std::int32_t, other_rank);
        profiler::Trace t;
        t.world_size = 2;
        using profiler::LaneKind;
        const auto s0 = t.add_lane({LaneKind::GpuStream, 0, 7, 100, "r0 stream", 0});
        const auto h0 = t.add_lane({LaneKind::HostThread, -1, 1, 100, "r0 thread", 0});
        const auto s1 = t.add_lane({LaneKind::GpuStream, 0, 7, 200, "r1 stream", other_rank});
        const auto h1 = t.add_lane({LaneKind::HostThread, -1, 1, 200, "r1 thread", other_rank});
        const auto call = [&t](profiler::LaneId lane, profiler::ActivityKind kind,
                               std::int64_t start, const char* name, std::uint64_t id) {
            profiler::Activity a;
            a.kind = kind;
            a.lane = lane;
            a.start_ns = start;
            a.end_ns = start + 6;
            a.name = t.strings.intern(name);
            a.correlation = id;
            t.activities.push_back(a);
        };
        call(h0, profiler::ActivityKind::DriverApi, 2, "cuLaunchKernel", 7);
        call(h0, profiler::ActivityKind::RuntimeApi, 0, "cudaLaunchKernel", 7);
        call(h0, profiler::ActivityKind::Synchronization, 20, "cudaStreamSynchronize", 9);
        call(h1, profiler::ActivityKind::RuntimeApi, 0, "cudaLaunchKernel", 7);
        testing::kernelAt(t, s0, 120, 130, "k2", 7);
        testing::kernelAt(t, s0, 100, 110, "k1", 7);
        testing::kernelAt(t, s0, 200, 210, "k3", 9);
        testing::kernelAt(t, s1, 50, 60, "k1", 7);
        // Built from the trace in memory, and streamed from a file's rows (TimelineStream).
        const std::string path = dir_.filePath(QStringLiteral("launches.db")).toStdString();
        testing::removeDatabase(path);
        std::int64_t run = 0;
        {
            reports::RunRecord record;
            record.trace = t;
            record.trace->sort();
            reports::ResultsDatabase db(path, reports::OpenMode::CreateOrOpen);
            run = reports::RunWriter(db).write(record);
        }
        const auto streamed = TraceLoader::loadNow(QString::fromStdString(path), run);
        QVERIFY(streamed != nullptr);
        QVERIFY(!streamed->read_whole);
        for (const auto& d :
             {std::shared_ptr<const TimelineData>(TimelineData::build(t)), streamed->timeline})
            checkLaunchJoin(*d, s0, h0, s1, h1);
    }

    // Each record read from the file is the one held in memory, and so is every tooltip.
    void everyRecordAndTooltipAsInMemory() {
        const TimelineData& d = *loaded_->timeline;
        const TimelineData& m = *in_memory_;
        for (std::uint32_t i = 0; i < d.activityCount(); i += 7) {
            const profiler::Activity got = d.details(i);
            const profiler::Activity want = m.details(i);
            QCOMPARE(got.start_ns, want.start_ns);
            QCOMPARE(got.end_ns, want.end_ns);
            QCOMPARE(got.name, want.name);
            QCOMPARE(got.kind, want.kind);
            QCOMPARE(got.lane, want.lane);
            QCOMPARE(got.correlation, want.correlation);
            QCOMPARE(got.bytes, want.bytes);
            QCOMPARE(got.grid, want.grid);
            QCOMPARE(got.block, want.block);
            QCOMPARE(got.registers_per_thread, want.registers_per_thread);
            QCOMPARE(got.shared_memory_bytes, want.shared_memory_bytes);
            const ActivityCore core = d.activity(i);
            QCOMPARE(core.start_ns, want.start_ns);
            QCOMPARE(core.end_ns, want.end_ns);
            QCOMPARE(core.name, want.name);
            QCOMPARE(core.kind, want.kind);
            QCOMPARE(core.lane, want.lane);
        }
        const TimelineViewState state;
        std::size_t tooltips = 0;
        for (std::size_t r = 0; r < d.rows().size(); ++r) {
            const auto& events = d.rows()[r].events;
            for (std::size_t k = 0; k < events.size(); k += 997) {
                DrawItem item;
                item.row = static_cast<int>(r);
                item.first = static_cast<std::uint32_t>(k);
                const QString got = activityTooltip(d, state, item);
                QCOMPARE(got, activityTooltip(m, state, item));
                QVERIFY(!got.contains(QStringLiteral("not read")));
                ++tooltips;
            }
        }
        QVERIFY(tooltips > 50);
    }

    // The range panel and the Kernels tab of a range: the profiler's analyses over the
    // device work read for the window give what they give over the whole trace.
    void rangeStatisticsAsInMemory() {
        const TimelineData& d = *loaded_->timeline;
        const TimelineData& m = *in_memory_;
        const auto span = static_cast<double>(d.endNs() - d.beginNs());
        const auto at = [&](double f) { return static_cast<double>(d.beginNs()) + f * span; };
        std::size_t non_empty = 0;
        for (const auto& [f0, f1] : std::vector<std::pair<double, double>>{
                 {0.0, 1.0}, {0.1, 0.2}, {0.5, 0.5001}, {0.33, 0.9}, {0.999, 1.0}}) {
            const RangeStats got = computeRangeStats(d, at(f0), at(f1));
            const RangeStats want = computeRangeStats(m, at(f0), at(f1));
            QCOMPARE(got.activity_count, want.activity_count);
            QCOMPARE(got.work_ns, want.work_ns);
            QCOMPARE(got.host_ops, want.host_ops);
            QCOMPARE(got.busy.size(), want.busy.size());
            for (std::size_t b = 0; b < got.busy.size(); ++b) {
                QCOMPARE(got.busy[b].device, want.busy[b].device);
                QCOMPARE(got.busy[b].busy_ns, want.busy[b].busy_ns);
            }
            compareStats(got.kernels, want.kernels);
            non_empty += want.activity_count > 0 ? 1 : 0;
        }
        QVERIFY(non_empty >= 4);
    }

    // The diff reads the whole trace again, as it was loaded.
    void wholeTraceAsLoaded() {
        const ActivitySelection got = loaded_->timeline->wholeTrace();
        const profiler::Trace& want = in_memory_->trace();
        QCOMPARE(got.trace().activities.size(), want.activities.size());
        for (std::size_t i = 0; i < want.activities.size(); i += 101) {
            QCOMPARE(got.trace().activities[i].start_ns, want.activities[i].start_ns);
            QCOMPARE(got.trace().activities[i].name, want.activities[i].name);
            QCOMPARE(got.original(i), static_cast<std::uint32_t>(i));
        }
        QCOMPARE(got.trace().lanes.size(), want.lanes.size());
    }

    // A trace of absolute clock values is rebased when it is indexed: the records read
    // from the file come on the timeline's clock as the ones held in memory do.
    void absoluteClockRecordsComeRebased() {
        reports::RunRecord run;
        {
            const reports::ResultsDatabase db(path_, reports::OpenMode::ReadOnly);
            run = reports::load_run(db, run_, reports::RunParts{true, true, true, true, true});
        }
        QVERIFY(run.trace.has_value());
        run.matrix_id.reset();  // written alone into a file of its own
        const std::int64_t base = 1'700'000'000'000'000'000;
        for (profiler::Activity& a : run.trace->activities) {
            a.start_ns += base;
            a.end_ns += base;
        }
        for (auto& series : run.trace->counters) {
            for (auto& sample : series.samples)
                sample.t_ns += base;
        }
        const std::string path = dir_.filePath(QStringLiteral("absolute.db")).toStdString();
        std::int64_t id = 0;
        {
            reports::ResultsDatabase db(path, reports::OpenMode::CreateOrOpen);
            id = reports::RunWriter(db).write(run);
        }
        const auto loaded = TraceLoader::loadNow(QString::fromStdString(path), id);
        QVERIFY(loaded != nullptr);
        QVERIFY(!loaded->read_whole);  // rebased after its rows passed
        const TimelineData& d = *loaded->timeline;
        QVERIFY(d.detailsInStore());
        QVERIFY(d.rebasedBy() >= base);
        const auto m = TimelineData::build(std::move(*run.trace));
        QCOMPARE(d.activityCount(), m->activityCount());
        QCOMPARE(d.beginNs(), m->beginNs());
        QCOMPARE(d.resolutionNs(), m->resolutionNs());
        for (std::size_t b = 0; b < d.deviceBusy().size(); ++b)
            QCOMPARE(d.deviceBusy()[b].busyNs(0, 0.5 * static_cast<double>(d.endNs())),
                     m->deviceBusy()[b].busyNs(0, 0.5 * static_cast<double>(m->endNs())));
        for (std::uint32_t i = 0; i < d.activityCount(); i += 13)
            QCOMPARE(d.activity(i).start_ns, m->activity(i).start_ns);
        for (std::uint32_t i = 0; i < d.activityCount(); i += 13) {
            QCOMPARE(d.details(i).start_ns, m->details(i).start_ns);
            QCOMPARE(d.details(i).end_ns, m->details(i).end_ns);
        }
        // What is rebased besides the rows: the clocks, the capture window, the counters
        // and collectives, by value (a field moved on one path only reads wrong here).
        QCOMPARE(d.trace().base_ns, m->trace().base_ns);
        QCOMPARE(d.trace().capture_begin_ns, m->trace().capture_begin_ns);
        QCOMPARE(d.trace().capture_end_ns, m->trace().capture_end_ns);
        QCOMPARE(d.trace().counters.size(), m->trace().counters.size());
        QVERIFY(!d.trace().counters.empty());
        for (std::size_t c = 0; c < d.trace().counters.size(); ++c) {
            const auto& got = d.trace().counters[c].samples;
            const auto& want = m->trace().counters[c].samples;
            QCOMPARE(got.size(), want.size());
            for (std::size_t k = 0; k < got.size(); ++k)
                QCOMPARE(got[k].t_ns, want[k].t_ns);
        }
        QCOMPARE(d.trace().collectives.size(), m->trace().collectives.size());
        for (std::size_t c = 0; c < d.trace().collectives.size(); ++c) {
            QCOMPARE(d.trace().collectives[c].start_ns, m->trace().collectives[c].start_ns);
            QCOMPARE(d.trace().collectives[c].end_ns, m->trace().collectives[c].end_ns);
        }
        const auto span = static_cast<double>(d.endNs() - d.beginNs());
        const RangeStats got = computeRangeStats(d, 0.3 * span, 0.4 * span);
        const RangeStats want = computeRangeStats(*m, 0.3 * span, 0.4 * span);
        QVERIFY(want.activity_count > 0);
        QCOMPARE(got.activity_count, want.activity_count);
        QCOMPARE(got.work_ns, want.work_ns);
        compareStats(got.kernels, want.kernels);
    }

    // A CPU-backend run: its ops are the device's work, in the range panel as in memory.
    void cpuRunRangeStatisticsAsInMemory() {
        const std::string path = dir_.filePath(QStringLiteral("cpu.db")).toStdString();
        const auto run = testing::writeCpuDatabase(path, 6).first;
        const auto loaded = TraceLoader::loadNow(QString::fromStdString(path), run);
        QVERIFY(loaded != nullptr);
        // Its ops' self times and FLOPs need the whole trace: read whole, then let go.
        QVERIFY(loaded->read_whole);
        const TimelineData& d = *loaded->timeline;
        QVERIFY(d.detailsInStore());
        QVERIFY(d.hostOpTrace());
        const reports::ResultsDatabase db(path, reports::OpenMode::ReadOnly);
        auto whole = reports::load_trace(db, run);
        QVERIFY(whole.has_value());
        const auto m = TimelineData::build(std::move(*whole));
        const auto span = static_cast<double>(d.endNs() - d.beginNs());
        const auto at = [&](double f) { return static_cast<double>(d.beginNs()) + f * span; };
        for (const auto& [f0, f1] :
             std::vector<std::pair<double, double>>{{0.0, 1.0}, {0.2, 0.3}, {0.61, 0.6101}}) {
            const RangeStats got = computeRangeStats(d, at(f0), at(f1));
            const RangeStats want = computeRangeStats(*m, at(f0), at(f1));
            QVERIFY(got.host_ops);
            QCOMPARE(got.activity_count, want.activity_count);
            QCOMPARE(got.work_ns, want.work_ns);
            QCOMPARE(got.busy.size(), want.busy.size());
            for (std::size_t b = 0; b < got.busy.size(); ++b)
                QCOMPARE(got.busy[b].busy_ns, want.busy[b].busy_ns);
            compareStats(got.kernels, want.kernels);
        }
    }

    // The run's rows were deleted from the file after the load (as a replaced run's are):
    // the range panel says it could not read them instead of the GUI ending on the error.
    void aRangeWhoseRowsWentIsSaidInThePanel() {
        const std::string path = dir_.filePath(QStringLiteral("gone.db")).toStdString();
        const auto run = testing::writeDatabase(path, {3000, 0, 5});
        const auto loaded = TraceLoader::loadNow(QString::fromStdString(path), run);
        QVERIFY(loaded != nullptr);
        const TimelineData& d = *loaded->timeline;
        QVERIFY(d.detailsInStore());
        {
            reports::ResultsDatabase db(path, reports::OpenMode::CreateOrOpen);
            db.prepare("DELETE FROM activities WHERE run_id = ?1").bind(1, run).run();
        }
        RangePanel panel;
        panel.showRange(d, static_cast<double>(d.beginNs()), static_cast<double>(d.endNs()),
                        d.beginNs());
        QCOMPARE(panel.stats().activity_count, std::int64_t{0});
        bool said = false;
        for (const QLabel* label : panel.findChildren<QLabel*>())
            said = said || label->text().contains(QStringLiteral("Could not read"));
        QVERIFY(said);
    }

  private:
    // The launch join's answers for launchJoinTakesTheFirstOfItsRankAndId's trace.
    static void checkLaunchJoin(const TimelineData& timeline, profiler::LaneId s0,
                                profiler::LaneId h0, profiler::LaneId s1, profiler::LaneId h1) {
        const TimelineData* d = &timeline;
        const auto at = [&](profiler::LaneId lane, std::int64_t start) {
            for (std::uint32_t i = 0; i < d->activityCount(); ++i) {
                if (d->activity(i).lane == lane && d->activity(i).start_ns == start)
                    return i;
            }
            return std::uint32_t{0xffffffff};
        };
        using Found = std::optional<std::uint32_t>;
        QCOMPARE(d->launchOf(at(s0, 100)), Found(at(h0, 0)));
        QCOMPARE(d->launchOf(at(s0, 120)), Found(at(h0, 0)));
        QCOMPARE(d->gpuWorkLaunchedBy(at(h0, 0)), Found(at(s0, 100)));
        QCOMPARE(d->gpuWorkLaunchedBy(at(h0, 2)), Found(at(s0, 100)));
        QCOMPARE(d->gpuWorkLaunchedBy(at(h0, 20)), Found(at(s0, 200)));
        QCOMPARE(d->launchOf(at(s0, 200)), Found());
        QCOMPARE(d->launchOf(at(s1, 50)), Found(at(h1, 0)));
        QCOMPARE(d->gpuWorkLaunchedBy(at(h1, 0)), Found(at(s1, 50)));
        QCOMPARE(d->gpuWorkLaunchedBy(at(s0, 100)), Found());
    }

    QTemporaryDir dir_;
    std::string path_;
    std::int64_t run_ = 0;
    LoadedTracePtr loaded_;
    std::shared_ptr<const TimelineData> in_memory_;
};

QTEST_MAIN(TestDetailsFromStore)
#include "tst_details_from_store.moc"
