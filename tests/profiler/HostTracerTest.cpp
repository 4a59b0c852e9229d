#include <gtest/gtest.h>

#include <map>
#include <nvtx3/nvtx3.hpp>
#include <thread>

#include "profiler/capture/HostClock.hpp"
#include "profiler/host/HostTracer.hpp"

namespace trainscope::profiler {
namespace {

struct TrainscopeDomain {
    static constexpr char const* name{"trainscope"};
};
struct OpsDomain {
    static constexpr char const* name{"trainscope.ops"};
};

void busy_wait_ns(std::int64_t duration_ns) {
    const std::int64_t until = host_clock_now_ns() + duration_ns;
    while (host_clock_now_ns() < until) {
    }
}

std::map<std::string, Activity> by_name(const Trace& trace) {
    std::map<std::string, Activity> result;
    for (const Activity& a : trace.activities)
        result[trace.strings.at(a.name)] = a;
    return result;
}

TEST(HostTracer, RecordsNestedNvtx3RangesWithDepthAndTimes) {
    HostTracer tracer;
    const std::int64_t before_ns = host_clock_now_ns();
    {
        nvtx3::scoped_range_in<TrainscopeDomain> step{"step"};
        busy_wait_ns(200'000);
        {
            nvtx3::scoped_range_in<TrainscopeDomain> forward{"forward"};
            busy_wait_ns(300'000);
        }
        {
            nvtx3::scoped_range_in<TrainscopeDomain> backward{"backward"};
            nvtx3::scoped_range_in<OpsDomain> conv{"conv2d"};
            busy_wait_ns(100'000);
        }
    }
    const std::int64_t after_ns = host_clock_now_ns();
    const Trace trace = tracer.stop();
    ASSERT_TRUE(HostTracer::injection_attached()) << "NVTX did not call the static injection";
    ASSERT_EQ(trace.activities.size(), 4u);
    auto ranges = by_name(trace);
    const Activity& step = ranges.at("step");
    const Activity& forward = ranges.at("forward");
    const Activity& backward = ranges.at("backward");
    const Activity& conv = ranges.at("conv2d");
    EXPECT_EQ(step.kind, ActivityKind::NvtxRange);
    EXPECT_EQ(step.depth, 0);
    EXPECT_EQ(forward.depth, 1);
    EXPECT_EQ(backward.depth, 1);
    EXPECT_EQ(trace.lanes.at(step.lane).kind, LaneKind::Nvtx);
    EXPECT_EQ(step.lane, forward.lane);
    // Ops-domain ranges are host work on the thread's host lane, at their own depth.
    EXPECT_EQ(conv.kind, ActivityKind::HostOp);
    EXPECT_EQ(conv.depth, 0);
    EXPECT_EQ(trace.lanes.at(conv.lane).kind, LaneKind::HostThread);
    // Times: on the host clock, nested, and at least as long as the work inside.
    EXPECT_GE(trace.base_ns + step.start_ns, before_ns);
    EXPECT_LE(trace.base_ns + step.end_ns, after_ns);
    EXPECT_LE(step.start_ns, forward.start_ns);
    EXPECT_LE(forward.end_ns, backward.start_ns);
    EXPECT_LE(backward.end_ns, step.end_ns);
    EXPECT_GE(forward.duration_ns(), 300'000);
    EXPECT_GE(step.duration_ns(), 600'000);
    EXPECT_GE(conv.start_ns, backward.start_ns);
}

TEST(HostTracer, CApiRangesAndOtherThreadsGetTheirOwnLanes) {
    HostTracer tracer;
    nvtxRangePushA("main outer");
    std::thread worker([] {
        nvtxRangePushA("worker range");
        busy_wait_ns(50'000);
        nvtxRangePop();
    });
    worker.join();
    nvtxRangePop();
    const Trace trace = tracer.stop();
    ASSERT_EQ(trace.activities.size(), 2u);
    auto ranges = by_name(trace);
    EXPECT_NE(ranges.at("main outer").lane, ranges.at("worker range").lane);
    EXPECT_EQ(ranges.at("worker range").depth, 0);
    EXPECT_GE(ranges.at("worker range").duration_ns(), 50'000);
}

TEST(HostTracer, RecordsOnlyWhileRunning) {
    nvtxRangePushA("before");
    nvtxRangePop();
    Trace trace;
    {
        HostTracer tracer;
        nvtxRangePushA("during");
        nvtxRangePop();
        trace = tracer.stop();
    }
    nvtxRangePushA("after");
    nvtxRangePop();
    ASSERT_EQ(trace.activities.size(), 1u);
    EXPECT_EQ(trace.strings.at(trace.activities[0].name), "during");
    EXPECT_THROW(
        {
            HostTracer first;
            HostTracer second;
        },
        std::logic_error);
}

}  // namespace
}  // namespace trainscope::profiler
