// One answer per question: where the GUI shows a figure that `trainscope analyze`,
// kernels.csv or the range panel also gives, both read the same profiler function on the
// same trace. Each test builds a trace that the two sides used to read differently, and
// fails if one side computes the figure its own way again.
#include <QTest>
#include <map>
#include <utility>

#include "gui/kernels/KernelStats.hpp"
#include "gui/range/RangeStats.hpp"
#include "gui/runs/MetricChartData.hpp"
#include "gui/timeline/StragglerPanel.hpp"
#include "gui/timeline/TimelineData.hpp"
#include "profiler/analysis/CollectiveMatching.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/KernelBreakdownAnalysis.hpp"
#include "profiler/trace/LaneRegistry.hpp"
#include "profiler/trace/TraceNesting.hpp"
#include "reports/metrics/MetricInterval.hpp"
#include "tests/gui/CpuTraceGenerator.hpp"

using namespace trainscope;
using namespace trainscope::gui;
using profiler::ActivityKind;

namespace {

profiler::Activity& add(profiler::Trace& t, ActivityKind kind, profiler::LaneId lane,
                        std::int32_t device, std::int64_t start, std::int64_t end,
                        const std::string& name) {
    profiler::Activity a;
    a.kind = kind;
    a.lane = lane;
    a.device = device;
    a.start_ns = start;
    a.end_ns = end;
    a.name = t.strings.intern(name);
    t.activities.push_back(a);
    return t.activities.back();
}

// Two devices; one kernel record names no device (-1) but runs on device 0's stream;
// copies and sets on both; an NVTX lane with a partial overlap.
profiler::Trace twoDeviceTrace() {
    profiler::Trace t;
    profiler::LaneRegistry lanes(t);
    const auto s0 = lanes.gpu_stream(0, 7);
    const auto s0b = lanes.gpu_stream(0, 8);
    const auto s1 = lanes.gpu_stream(1, 3);
    add(t, ActivityKind::Kernel, s0, 0, 0, 100, "sgemm");
    add(t, ActivityKind::Kernel, s0b, -1, 50, 150, "relu");  // device from the lane
    add(t, ActivityKind::Memset, s0, 0, 400, 420, "Memset (Device)");
    add(t, ActivityKind::Kernel, s0, 0, 500, 530, "sgemm");
    add(t, ActivityKind::Memcpy, s1, 1, 20, 80, "Memcpy HtoD (Pinned -> Device)");
    add(t, ActivityKind::Kernel, s1, 1, 200, 260, "relu");
    add(t, ActivityKind::Kernel, s1, 1, 240, 300, "conv");
    lanes.finish();
    return t;
}

// Three ranks, three all-reduces matched by order (no sequence numbers): rank 2 arrives
// last twice, rank 0 once.
profiler::Trace threeRankJob() {
    profiler::Trace t;
    t.world_size = 3;
    const std::int64_t arrivals[3][3] = {{0, 10, 40}, {100, 150, 500}, {900, 700, 800}};
    for (std::int32_t rank = 0; rank < 3; ++rank) {
        profiler::LaneRegistry lanes(t, rank);
        const auto lane = lanes.gpu_stream(0, 9);
        for (int i = 0; i < 3; ++i) {
            const std::int64_t start = arrivals[i][rank];
            add(t, ActivityKind::Kernel, lane, 0, start, 1000 * (i + 1),
                "ncclKernel_AllReduce_RING_LL_Sum_float");
            profiler::CollectiveCall c;
            c.rank = rank;
            c.kind = profiler::CollectiveKind::AllReduce;
            c.lane = lane;
            c.start_ns = start;
            c.end_ns = 1000 * (i + 1);
            t.collectives.push_back(c);
        }
        lanes.finish();
    }
    return t;
}

}  // namespace

class TestSameAnswer : public QObject {
    Q_OBJECT
  private slots:
    // Nesting: the timeline's rows are the trace's stored depths, which every importer
    // and capture sets with profiler::assign_nesting_depths (a partial overlap is a
    // sibling). The GUI used to stack "overlap" a level below "outer".
    void timelineRowsAreTheProfilersNestingDepths() {
        profiler::Trace t;
        profiler::LaneRegistry lanes(t);
        const auto nvtx = lanes.nvtx(10, 10);
        const auto cpu = lanes.host_thread(10, 10);
        add(t, ActivityKind::NvtxRange, nvtx, -1, 0, 100, "outer");
        add(t, ActivityKind::NvtxRange, nvtx, -1, 10, 50, "inner");
        add(t, ActivityKind::NvtxRange, nvtx, -1, 40, 120, "overlap");  // partial
        add(t, ActivityKind::NvtxRange, nvtx, -1, 60, 70, "in overlap");
        add(t, ActivityKind::HostOp, cpu, -1, 0, 30, "op");
        add(t, ActivityKind::HostOp, cpu, -1, 20, 40, "op overlap");  // partial
        profiler::assign_nesting_depths(t);
        std::map<std::string, int> profiler_depth;
        for (const auto& a : t.activities)
            profiler_depth[t.strings.at(a.name)] = a.depth;
        QCOMPARE(profiler_depth.at("overlap"), 0);
        QCOMPARE(profiler_depth.at("in overlap"), 1);
        QCOMPARE(profiler_depth.at("op overlap"), 0);

        const auto d = TimelineData::build(t);
        QVERIFY(d);
        for (std::uint32_t i = 0; i < d->trace().activities.size(); ++i) {
            const std::string name = d->trace().strings.at(d->activity(i).name);
            const TimelineRow& row = d->rows().at(static_cast<std::size_t>(d->rowOf(i)));
            QVERIFY2(row.depth == profiler_depth.at(name), name.c_str());
        }
    }

    // Busy time: the utilization plot (DeviceBusy), the range panel (computeRangeStats)
    // and `trainscope analyze` (analyze_gpu_busy) give the same busy time per device for
    // any window, with one rule for a record's device. The GUI used to take
    // max(activity device, lane device), the profiler the activity's device alone, so
    // the relu without a device counted for device 0 in one and "device -1" in the other.
    void busyTimeIsTheProfilers_data() {
        QTest::addColumn<double>("t0");
        QTest::addColumn<double>("t1");
        QTest::newRow("whole trace") << 0.0 << 1000.0;
        QTest::newRow("overlapping streams") << 30.0 << 120.0;
        QTest::newRow("across an idle gap") << 100.0 << 450.0;
        QTest::newRow("inside a kernel") << 210.0 << 220.0;
        QTest::newRow("nothing") << 600.0 << 900.0;
    }
    void busyTimeIsTheProfilers() {
        QFETCH(double, t0);
        QFETCH(double, t1);
        const auto d = TimelineData::build(twoDeviceTrace());
        profiler::GpuBusyOptions options;
        options.include_copies = true;
        const profiler::TimeWindow window{static_cast<std::int64_t>(t0),
                                          static_cast<std::int64_t>(t1)};
        // A device is (rank, device) everywhere (profiler::work_device).
        std::map<std::pair<std::int32_t, std::int32_t>, std::int64_t> cli;
        for (const auto& b : profiler::analyze_gpu_busy(d->trace(), options, window))
            cli[{b.rank, b.device}] = b.busy_ns;
        QVERIFY(!cli.count({0, -1}));
        std::map<std::pair<std::int32_t, std::int32_t>, std::int64_t> panel;
        for (const auto& b : computeRangeStats(*d, t0, t1).busy)
            panel[{b.rank, b.device}] = b.busy_ns;
        QCOMPARE(panel, cli);
        QCOMPARE(d->deviceBusy().size(), std::size_t(2));
        for (const DeviceBusy& busy : d->deviceBusy()) {
            const auto it = cli.find({busy.rank, busy.device});
            QCOMPARE(busy.busyNs(t0, t1), it == cli.end() ? 0.0 : static_cast<double>(it->second));
        }
        // The kernels-only figure of `trainscope analyze` groups by the same device rule.
        const auto kernels = profiler::analyze_gpu_busy(d->trace());
        QCOMPARE(kernels.size(), std::size_t(2));
        QCOMPARE(kernels[0].device, 0);
        QCOMPARE(kernels[0].busy_ns, std::int64_t(150 + 30));  // sgemm ∪ relu, sgemm
    }

    // Kernel statistics: the Kernels tab (computeKernelStats), the range panel's table
    // and `trainscope analyze` / kernels.csv (analyze_kernel_breakdown) agree per name, for
    // the whole trace and a window; on a GPU trace and a CPU-backend trace (its ops).
    void kernelStatisticsAreTheProfilers_data() {
        QTest::addColumn<bool>("cpu");
        QTest::addColumn<double>("t0");
        QTest::addColumn<double>("t1");
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("GPU, whole") << false << -inf << inf;
        QTest::newRow("GPU, window") << false << 40.0 << 450.0;
        QTest::newRow("CPU ops, whole") << true << -inf << inf;
        QTest::newRow("CPU ops, window") << true << 2.0e6 << 9.0e6;
    }
    void kernelStatisticsAreTheProfilers() {
        QFETCH(bool, cpu);
        QFETCH(double, t0);
        QFETCH(double, t1);
        const auto d = TimelineData::build(cpu ? gui::testing::makeCpuTrace({4, 2, 1.0, 3})
                                               : twoDeviceTrace());
        const bool whole = std::isinf(t0);
        const profiler::TimeWindow window =
            whole ? profiler::TimeWindow{}
                  : profiler::TimeWindow{static_cast<std::int64_t>(std::ceil(t0)),
                                         static_cast<std::int64_t>(std::ceil(t1))};
        const auto cli = profiler::analyze_kernel_breakdown(d->trace(), window);
        const auto gui = whole ? computeKernelStats(*d) : computeKernelStats(*d, t0, t1);
        QVERIFY(!cli.by_name.empty());
        QCOMPARE(gui.size(), cli.by_name.size());
        for (std::size_t i = 0; i < gui.size(); ++i) {
            const auto& c = cli.by_name[i];
            QCOMPARE(gui[i].name.toStdString(), c.name);
            QCOMPARE(gui[i].count, c.stats.count);
            QCOMPARE(gui[i].total_ns, c.stats.total_ns);
            QCOMPARE(gui[i].min_ns, c.stats.min_ns);
            QCOMPARE(gui[i].max_ns, c.stats.max_ns);
            QCOMPARE(gui[i].share, c.stats.share);
            QCOMPARE(gui[i].mean_ns(), c.stats.mean_ns);
        }
        if (whole)
            return;
        // The range panel's table is the Kernels tab's for the same range.
        const RangeStats range = computeRangeStats(*d, t0, t1);
        QCOMPARE(range.work_ns, cli.total_ns);
        QCOMPARE(range.kernels.size(), gui.size());
        std::int64_t count = 0;
        for (std::size_t i = 0; i < gui.size(); ++i) {
            QCOMPARE(range.kernels[i].name, gui[i].name);
            QCOMPARE(range.kernels[i].category, gui[i].category);
            QCOMPARE(range.kernels[i].total_ns, gui[i].total_ns);
            QCOMPARE(range.kernels[i].longest, gui[i].longest);
            count += gui[i].count;
        }
        QCOMPARE(range.activity_count, count);
    }

    // A chart point several runs share: the GUI's run chart and the HTML report's
    // throughput chart both draw reports::metric_point (the mean, and the envelope of the
    // runs' intervals where every run has one). The GUI used to draw the widest interval
    // of the runs that had one, the report the mean of the bounds.
    void chartPointsAreTheReportsMetricPoint() {
        auto run = [](std::int64_t id, int threads, double step_ms, double half_ms, bool ci) {
            reports::RunRecord r;
            r.id = id;
            r.axes.batch = 64;
            r.axes.threads = threads;
            r.axes.precision = "fp32";
            r.metrics = {{"images_per_s", 64000.0 / step_ms, "images/s"}};
            if (ci) {
                r.metrics.push_back({"step_ms_ci_low", step_ms - half_ms, "ms"});
                r.metrics.push_back({"step_ms_ci_high", step_ms + half_ms, "ms"});
            }
            return r;
        };
        // Two runs at batch 64 (threads vary): both with intervals; at batch 32 one without.
        std::vector<reports::RunRecord> runs{run(1, 1, 10.0, 0.5, true), run(2, 2, 8.0, 0.1, true),
                                             run(3, 1, 6.0, 0.2, true), run(4, 2, 5.0, 0.1, false)};
        runs[2].axes.batch = 32;
        runs[3].axes.batch = 32;
        const ChartData chart = buildMetricChart(runs, "images_per_s", "batch", "");
        QCOMPARE(chart.series.size(), std::size_t(1));
        const auto& points = chart.series[0].points;
        QCOMPARE(points.size(), std::size_t(2));
        const std::vector<const reports::RunRecord*> at32{&runs[2], &runs[3]};
        const std::vector<const reports::RunRecord*> at64{&runs[0], &runs[1]};
        for (const auto& [pt, group] : {std::pair{points[0], at32}, std::pair{points[1], at64}}) {
            const auto expected = reports::metric_point(group, "images_per_s");
            QVERIFY(expected);
            QCOMPARE(pt.y, expected->value);
            QCOMPARE(pt.low.has_value(), expected->interval.has_value());
            if (expected->interval) {
                QCOMPARE(*pt.low, expected->interval->low);
                QCOMPARE(*pt.high, expected->interval->high);
            }
        }
        QVERIFY(!points[0].low);                   // one run at batch 32 has no interval: no bar
        QCOMPARE(*points[1].low, 64000.0 / 10.5);  // the slower run's low end
        QCOMPARE(*points[1].high, 64000.0 / 7.9);  // the faster run's high end
        QCOMPARE(points[1].y, (6400.0 + 8000.0) / 2);
    }

    // The straggler table shows analyze_stragglers' figures, which `trainscope analyze`
    // prints for the job: every rank's row, the slowest rank named the same.
    void stragglerTableMatchesTheAnalysis() {
        const profiler::Trace job = threeRankJob();
        const profiler::StragglerReport cli = profiler::analyze_stragglers(job);
        QCOMPARE(cli.slowest_rank, 2);
        StragglerPanel panel;
        panel.setTrace(&job);
        QVERIFY(!panel.isHidden());
        const StragglerTableModel& model = *panel.model();
        QCOMPARE(model.rowCount(), 3);
        for (int row = 0; row < model.rowCount(); ++row) {
            const auto& want = cli.ranks[static_cast<std::size_t>(row)];
            const auto cell = [&](int column) {
                return model.data(model.index(row, column), StragglerTableModel::SortRole)
                    .toLongLong();
            };
            QCOMPARE(cell(StragglerTableModel::Rank), qlonglong{want.rank});
            QCOMPARE(cell(StragglerTableModel::Collectives), qlonglong{want.collectives});
            QCOMPARE(cell(StragglerTableModel::TimesLast), qlonglong{want.times_last});
            QCOMPARE(cell(StragglerTableModel::WaitCaused), qlonglong{want.wait_caused_ns});
            QCOMPARE(cell(StragglerTableModel::Lateness), qlonglong{want.lateness_ns});
        }
        // rank 2 last at the first (40 vs 0, 10: 70 ns caused) and second (500: 750 ns).
        QCOMPARE(cli.ranks[2].times_last, std::int64_t{2});
        QCOMPARE(cli.ranks[2].wait_caused_ns, std::int64_t{70 + 750});
        QCOMPARE(cli.ranks[0].wait_caused_ns, std::int64_t{300});
        QVERIFY(panel.summary().contains(QStringLiteral("slowest rank 2")));
        // One process: no table.
        const profiler::Trace single = twoDeviceTrace();
        panel.setTrace(&single);
        QVERIFY(panel.isHidden());
    }
};

QTEST_MAIN(TestSameAnswer)
#include "tst_same_answer.moc"
