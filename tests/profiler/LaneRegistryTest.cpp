#include <gtest/gtest.h>

#include "profiler/trace/LaneRegistry.hpp"
#include "profiler/trace/TraceMerge.hpp"

namespace trainscope::profiler {
namespace {

TEST(LaneRegistry, FindsAnIdentityOnceAndNamesItByTheOneRule) {
    Trace trace;
    LaneRegistry lanes(trace);
    const LaneId stream = lanes.gpu_stream(0, 7);
    const LaneId main_nvtx = lanes.nvtx(4242, 4242);
    const LaneId worker_nvtx = lanes.nvtx(4242, 4250);
    const LaneId main_cpu = lanes.host_thread(4242, 4242);
    const LaneId annotations = lanes.device_annotations(1, 3);
    EXPECT_EQ(lanes.gpu_stream(0, 7), stream);
    EXPECT_EQ(lanes.nvtx(4242, 4242), main_nvtx);
    EXPECT_NE(main_nvtx, main_cpu);  // same thread, other kind
    ASSERT_EQ(trace.lanes.size(), 5u);
    lanes.finish();
    EXPECT_EQ(trace.lanes[stream].name, "GPU 0 · stream 7");
    EXPECT_EQ(trace.lanes[main_nvtx].name, "NVTX · main thread");
    EXPECT_EQ(trace.lanes[worker_nvtx].name, "NVTX · thread 4250");
    EXPECT_EQ(trace.lanes[main_cpu].name, "CPU · main thread");
    EXPECT_EQ(trace.lanes[annotations].name, "GPU 1 · annotations · stream 3");
}

TEST(LaneRegistry, ThreadNamesAndSeveralProcessesAreSaid) {
    Trace trace;
    LaneRegistry lanes(trace);
    const LaneId a = lanes.nvtx(10, 10);
    const LaneId b = lanes.nvtx(20, 21);
    lanes.set_thread_name(20, 21, "pt_autograd_0");
    lanes.set_process_name(10, "rank 0");
    lanes.finish();
    // Two processes: each lane says whose it is, by name where one is known.
    EXPECT_EQ(trace.lanes[a].name, "rank 0 · NVTX · main thread");
    EXPECT_EQ(trace.lanes[b].name, "process 20 · NVTX · thread 21 (pt_autograd_0)");
}

TEST(LaneRegistry, AThreadNameThatRepeatsTheIdSaysOnlyWhatIsNew) {
    // PyTorch's profiler names its threads "thread 25772 (python)".
    Trace trace;
    LaneRegistry lanes(trace);
    const LaneId main = lanes.host_thread(25738, 25738);
    const LaneId worker = lanes.nvtx(25738, 25772);
    lanes.set_thread_name(25738, 25738, "thread 25738 (python)");
    lanes.set_thread_name(25738, 25772, "thread 25772 (python)");
    lanes.finish();
    EXPECT_EQ(trace.lanes[main].name, "CPU · main thread (python)");
    EXPECT_EQ(trace.lanes[worker].name, "NVTX · thread 25772 (python)");
}

TEST(LaneRegistry, LanesAlreadyInTheTraceAreFoundAndKeepTheirNames) {
    Trace trace;
    trace.add_lane(Lane{LaneKind::HostThread, -1, 5, 5, "python"});
    LaneRegistry lanes(trace);
    EXPECT_EQ(lanes.host_thread(5, 5), 0u);
    lanes.finish();
    EXPECT_EQ(trace.lanes[0].name, "python");
    // A caller's own name is kept, too.
    const LaneId named = lanes.find_or_add(LaneKind::GpuStream, 0, 9, 0, "copy stream");
    lanes.finish();
    EXPECT_EQ(trace.lanes[named].name, "copy stream");
}

TEST(LaneRegistry, MergedSourcesShareALaneAndNestTogether) {
    // A CUPTI capture's API call inside the host tracer's op on the same thread: one lane,
    // the call one level below the op.
    Trace ops;
    LaneRegistry op_lanes(ops);
    Activity op;
    op.kind = ActivityKind::HostOp;
    op.lane = op_lanes.host_thread(1, 1);
    op.start_ns = 0;
    op.end_ns = 100;
    ops.activities.push_back(op);
    Trace api;
    LaneRegistry api_lanes(api);
    Activity call;
    call.kind = ActivityKind::RuntimeApi;
    call.lane = api_lanes.host_thread(1, 1);
    call.start_ns = 10;
    call.end_ns = 20;
    api.activities.push_back(call);
    merge_trace_into(ops, api);
    ASSERT_EQ(ops.lanes.size(), 1u);
    ASSERT_EQ(ops.activities.size(), 2u);
    EXPECT_EQ(ops.activities[0].depth, 0);
    EXPECT_EQ(ops.activities[1].kind, ActivityKind::RuntimeApi);
    EXPECT_EQ(ops.activities[1].depth, 1);
}

}  // namespace
}  // namespace trainscope::profiler

namespace trainscope::profiler {
namespace {

TEST(LaneRegistry, RanksOfOneJobKeepTheirOwnLanesEvenWithTheSamePid) {
    Trace trace;
    trace.world_size = 2;
    LaneRegistry rank0(trace, 0);
    LaneRegistry rank1(trace, 1);
    // Two nodes may give two ranks the same process id.
    const LaneId a = rank0.host_thread(100, 100);
    const LaneId b = rank1.host_thread(100, 100);
    const LaneId comm = rank1.communication(-1, 100, 100);
    const LaneId gpu_comm = rank0.communication(0, 13, 100);
    EXPECT_NE(a, b);
    EXPECT_EQ(rank1.host_thread(100, 100), b);
    rank0.finish();
    rank1.finish();
    EXPECT_EQ(trace.lanes[a].rank, 0);
    EXPECT_EQ(trace.lanes[b].rank, 1);
    EXPECT_EQ(trace.lanes[a].name, "rank 0 · CPU · main thread");
    EXPECT_EQ(trace.lanes[b].name, "rank 1 · CPU · main thread");
    EXPECT_EQ(trace.lanes[comm].name, "rank 1 · communication · main thread");
    EXPECT_EQ(trace.lanes[gpu_comm].name, "rank 0 · GPU 0 · communication · stream 13");
}

TEST(TraceMerge, KeepsRanksAndMovesCollectivesWithTheirLanesAndNames) {
    Trace into;
    into.base_ns = 1000;
    Trace from;
    from.base_ns = 1500;
    from.world_size = 2;
    LaneRegistry lanes(from, 1);
    const LaneId comm = lanes.communication(-1, 7, 7);
    CollectiveCall call;
    call.start_ns = 10;
    call.end_ns = 30;
    call.rank = 1;
    call.lane = comm;
    call.kind = CollectiveKind::AllReduce;
    call.bytes = 4096;
    call.group = from.strings.intern("world");
    call.dtype = from.strings.intern("double");
    from.collectives.push_back(call);
    merge_trace_into(into, from);
    EXPECT_EQ(into.world_size, 2);
    ASSERT_EQ(into.collectives.size(), 1u);
    const CollectiveCall& c = into.collectives[0];
    EXPECT_EQ(c.start_ns, 510);  // moved onto the other clock's zero
    EXPECT_EQ(into.lanes.at(c.lane).rank, 1);
    EXPECT_EQ(into.lanes.at(c.lane).kind, LaneKind::Communication);
    EXPECT_EQ(into.strings.at(c.group), "world");
    EXPECT_EQ(into.strings.at(c.dtype), "double");
}

TEST(Collectives, BusBandwidthFactorsAreTheNcclTestsOnes) {
    EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveKind::AllReduce, 8), 2.0 * 7.0 / 8.0);
    EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveKind::AllGather, 4), 0.75);
    EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveKind::ReduceScatter, 2), 0.5);
    EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveKind::Broadcast, 8), 1.0);
    EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveKind::AllReduce, 1), 0.0);
    EXPECT_EQ(collective_kind_from_string(to_string(CollectiveKind::ReduceScatter)),
              CollectiveKind::ReduceScatter);
}

}  // namespace
}  // namespace trainscope::profiler
