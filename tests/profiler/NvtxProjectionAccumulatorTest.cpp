// HostRangeProjectionAccumulator fed one activity at a time in trace order (by lane: the
// GPU lane's work before the calls that launched it, the NVTX lane's ranges after them)
// projects as the whole-trace function does: a launch recorded twice under one
// correlation counts once, a nested range's work counts for its parent (inclusive) or
// only for itself (innermost), and each range keeps its index in the trace.
#include <gtest/gtest.h>

#include <utility>

#include "HandBuiltTrace.hpp"
#include "profiler/analysis/NvtxProjectionAnalysis.hpp"
#include "profiler/trace/TraceNesting.hpp"

namespace trainscope::profiler {
namespace {

using testing::HandBuiltTrace;

HandBuiltTrace trace_in_lane_order() {
    HandBuiltTrace t;
    t.kernel(0, 7, "a", 100, 200, 1);
    t.kernel(0, 7, "b", 150, 350, 2);
    t.memcpy(0, 7, 600, 700, 64, 3);
    t.runtime_call(1, "cudaLaunchKernel", 20, 30, 1);
    t.runtime_call(1, "cudaLaunchKernel", 40, 50, 2);
    t.runtime_call(1, "cudaLaunchKernel_v7000", 45, 48, 2);  // the same launch again
    t.runtime_call(1, "cudaMemcpyAsync", 500, 510, 3);
    t.nvtx_range(1, "outer", 0, 1000);
    t.nvtx_range(1, "inner", 35, 400);
    assign_nesting_depths(t.trace());
    return t;
}

std::vector<NvtxRangeGpuTime> fed_one_by_one(const Trace& trace, Attribution attribution) {
    auto projection = HostRangeProjectionAccumulator::nvtx(trace.lanes, false);
    for (std::size_t i = 0; i < trace.activities.size(); ++i)
        projection.add(trace.activities[i], i);
    return std::move(projection).finish(trace.strings, attribution);
}

TEST(HostRangeProjectionAccumulator, FedInTraceOrderProjectsAsTheWholeTraceDoes) {
    HandBuiltTrace t = trace_in_lane_order();
    const auto inclusive = fed_one_by_one(t.trace(), Attribution::inclusive);
    ASSERT_EQ(inclusive.size(), 2u);
    EXPECT_EQ(inclusive[0].name, "outer");
    EXPECT_EQ(inclusive[0].range_index, 7u);
    EXPECT_EQ(inclusive[0].kernel_count, 2);  // "b" once, though launched by two records
    EXPECT_EQ(inclusive[0].kernel_ns, 300);
    EXPECT_EQ(inclusive[0].copy_count, 1);
    EXPECT_EQ(inclusive[0].gpu_busy_ns, 350);  // [100,350) + [600,700)
    EXPECT_EQ(inclusive[1].name, "inner");
    EXPECT_EQ(inclusive[1].range_index, 8u);
    EXPECT_EQ(inclusive[1].kernel_count, 1);  // "b"
    EXPECT_EQ(inclusive[1].gpu_begin_ns, 150);

    const auto innermost = fed_one_by_one(t.trace(), Attribution::innermost);
    ASSERT_EQ(innermost.size(), 2u);
    EXPECT_EQ(innermost[0].kernel_count, 1);  // "a": "b" is the inner range's
    EXPECT_EQ(innermost[0].copy_count, 1);
    EXPECT_EQ(innermost[1].kernel_count, 1);

    const auto is_range = [](const Activity& a) { return a.kind == ActivityKind::NvtxRange; };
    for (const Attribution attribution : {Attribution::inclusive, Attribution::innermost}) {
        const auto fed = fed_one_by_one(t.trace(), attribution);
        const auto whole = project_host_ranges_to_gpu(t.trace(), is_range, attribution);
        ASSERT_EQ(fed.size(), whole.size());
        for (std::size_t i = 0; i < fed.size(); ++i) {
            EXPECT_EQ(fed[i].range_index, whole[i].range_index);
            EXPECT_EQ(fed[i].kernel_count, whole[i].kernel_count);
            EXPECT_EQ(fed[i].copy_ns, whole[i].copy_ns);
            EXPECT_EQ(fed[i].gpu_busy_ns, whole[i].gpu_busy_ns);
        }
    }
}

}  // namespace
}  // namespace trainscope::profiler
