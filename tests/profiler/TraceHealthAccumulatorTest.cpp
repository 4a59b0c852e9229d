// TraceHealthAccumulator, fed one activity at a time in trace order, joins GPU work to its
// launch as LaunchIndex does over the whole trace: the first call of a correlation in
// trace order is the launch (even where a later one starts earlier), work listed before
// its launch still finds it, correlation 0 never joins, and in a job a rank's work joins
// only its own rank's calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "HandBuiltTrace.hpp"
#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/LaunchIndex.hpp"
#include "profiler/analysis/TraceHealthAnalysis.hpp"

namespace trainscope::profiler {
namespace {

using testing::HandBuiltTrace;

// The launch join spelt out with LaunchIndex over the whole trace: what the accumulator
// must agree with.
struct LaunchJoin {
    std::int64_t before_launch = 0;
    std::int64_t max_skew_ns = 0;
    std::int64_t without_launch = 0;
    std::int64_t graph_without_launch = 0;
};

LaunchJoin join_with_launch_index(const Trace& trace) {
    LaunchJoin j;
    const LaunchIndex launches(trace);
    for (const Activity& a : trace.activities) {
        if (!is_gpu_work(a.kind))
            continue;
        const auto launch = launches.launch_of(a);
        if (!launch) {
            if (a.correlation != 0 || a.graph_id != 0) {
                ++j.without_launch;
                if (a.kind == ActivityKind::Kernel && a.graph_id != 0)
                    ++j.graph_without_launch;
            }
            continue;
        }
        const std::int64_t start = trace.activities[*launch].start_ns;
        if (a.start_ns < start) {
            ++j.before_launch;
            j.max_skew_ns = std::max(j.max_skew_ns, start - a.start_ns);
        }
    }
    return j;
}

TEST(TraceHealthAccumulator, FedInTraceOrderJoinsLaunchesAsLaunchIndexDoes) {
    HandBuiltTrace t;
    // GPU work listed before the calls that launched it (its lane comes first).
    t.kernel(0, 7, "early", 150, 160, 2);               // launch at 200: 50 ns early
    t.kernel(0, 7, "twice", 250, 260, 5);               // launch: the first call of 5, at 300
    t.memcpy(0, 7, 270, 280, 64, 6);                    // launched by a driver call at 265
    t.kernel(0, 7, "orphan", 500, 510, 99);             // no call 99
    t.kernel(0, 7, "graph", 600, 610, 0).graph_id = 3;  // graph, no correlation
    t.memcpy(0, 7, 620, 630, 8, 0).graph_id = 4;        // not a kernel
    t.kernel(0, 7, "unlaunched", 700, 710, 0);          // correlation 0: never joins
    t.kernel(0, 7, "before window", -20, -10, 0);
    t.runtime_call(1, "cudaLaunchKernel", 200, 210, 2);
    t.runtime_call(1, "cudaLaunchKernel", 300, 310, 5);
    t.runtime_call(1, "cudaLaunchKernel", 100, 110, 0);  // correlation 0: no launch
    Activity& driver = t.runtime_call(1, "cuLaunchKernel", 265, 268, 6);
    driver.kind = ActivityKind::DriverApi;
    // A second call of correlation 5, later in trace order but starting earlier: not the
    // launch (nsys stores some calls twice under one id).
    t.runtime_call(2, "cudaLaunchKernel_v7000", 240, 245, 5);
    t.trace().capture_begin_ns = 0;
    t.trace().capture_end_ns = 1000;
    t.trace().dropped_records = 2;

    TraceHealthAccumulator health(t.trace());
    for (const Activity& a : t.trace().activities)
        health.add(a);
    const TraceHealth h = std::move(health).finish();

    EXPECT_EQ(h.dropped_records, 2);
    EXPECT_EQ(h.gpu_work_before_launch, 2);  // "early" and "twice"
    EXPECT_EQ(h.max_clock_skew_ns, 50);
    EXPECT_EQ(h.gpu_work_without_launch, 3);  // orphan, graph kernel, graph memcpy
    EXPECT_EQ(h.graph_kernels_without_launch, 1);
    EXPECT_EQ(h.outside_capture_window, 1);
    const LaunchJoin want = join_with_launch_index(t.trace());
    EXPECT_EQ(h.gpu_work_before_launch, want.before_launch);
    EXPECT_EQ(h.max_clock_skew_ns, want.max_skew_ns);
    EXPECT_EQ(h.gpu_work_without_launch, want.without_launch);
    EXPECT_EQ(h.graph_kernels_without_launch, want.graph_without_launch);
    // The whole-trace function is the same accumulator.
    const TraceHealth whole = analyze_trace_health(t.trace());
    EXPECT_EQ(whole.gpu_work_before_launch, h.gpu_work_before_launch);
    EXPECT_EQ(whole.max_clock_skew_ns, h.max_clock_skew_ns);
    EXPECT_EQ(whole.gpu_work_without_launch, h.gpu_work_without_launch);
    EXPECT_EQ(whole.outside_capture_window, h.outside_capture_window);
}

// Correlation ids are a process's own: in a job two ranks reuse them. Rank 0's calls come
// first in trace order, so a join by correlation alone would take them for rank 1's work.
TEST(TraceHealthAccumulator, JoinsEachRanksWorkToItsOwnRanksCall) {
    HandBuiltTrace t;
    t.runtime_call(1, "cudaLaunchKernel", 100, 110, 5);      // rank 0
    t.runtime_call(1, "cudaLaunchKernel", 100, 110, 9);      // rank 0: rank 1 has no call 9
    const LaneId gpu = t.kernel(1, 7, "k", 50, 60, 5).lane;  // rank 1, launched at 40
    t.kernel(1, 7, "k", 300, 310, 9);                        // rank 1, no launch of its rank
    const LaneId host = t.runtime_call(2, "cudaLaunchKernel", 40, 45, 5).lane;  // rank 1
    Trace& trace = t.trace();
    trace.lanes[gpu].rank = 1;
    trace.lanes[host].rank = 1;
    trace.world_size = 2;

    const TraceHealth h = analyze_trace_health(trace);
    EXPECT_EQ(h.gpu_work_before_launch, 0);  // not rank 0's call at 100
    EXPECT_EQ(h.max_clock_skew_ns, 0);
    EXPECT_EQ(h.gpu_work_without_launch, 1);  // k9: rank 0's call 9 is not its launch
    const LaunchIndex launches(trace);
    EXPECT_EQ(launches.launch_of(trace.activities[2]), 4u);
    EXPECT_FALSE(launches.launch_of(trace.activities[3]).has_value());
    const LaunchJoin want = join_with_launch_index(trace);
    EXPECT_EQ(want.before_launch, h.gpu_work_before_launch);
    EXPECT_EQ(want.without_launch, h.gpu_work_without_launch);
}

}  // namespace
}  // namespace trainscope::profiler
