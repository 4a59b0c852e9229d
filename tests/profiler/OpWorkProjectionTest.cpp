// Which kernels an op's device time holds: its own rank's (correlation ids repeat across
// ranks) and not those of the ops nested in it (its FLOPs and bytes exclude theirs).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "HandBuiltTrace.hpp"
#include "profiler/analysis/NvtxProjectionAnalysis.hpp"
#include "profiler/analysis/OpWork.hpp"
#include "profiler/trace/TraceMerge.hpp"

namespace trainscope::profiler {
namespace {

using testing::HandBuiltTrace;

// One rank's step: a conv op launching one kernel (correlation 7) and a nested bias op
// launching another (correlation 8), inside a "forward" NVTX range. Both ranks use the
// same process and thread ids and the same correlation ids, as two nodes may.
HandBuiltTrace conv_step(std::int64_t conv_kernel_ns, std::int64_t bias_kernel_ns) {
    HandBuiltTrace t;
    t.nvtx_range(7, "forward", 0, 1000);
    Activity& conv = t.host_op(7, "conv_fwd", 10, 500);
    conv.flops = 1e6F;
    conv.bytes = 4000;
    Activity& bias = t.host_op(7, "add_bias", 300, 400, 1);
    bias.flops = 1e3F;
    bias.bytes = 800;
    t.runtime_call(7, "cudaLaunchKernel", 100, 110, 7);
    t.runtime_call(7, "cudaLaunchKernel", 310, 320, 8);
    t.kernel(0, 7, "implicit_convolve_sgemm", 600, 600 + conv_kernel_ns, 7);
    t.kernel(0, 7, "add_bias_kernel", 2000, 2000 + bias_kernel_ns, 8);
    return t;
}

Trace two_rank_op_job() {
    HandBuiltTrace rank0 = conv_step(100, 10);
    HandBuiltTrace rank1 = conv_step(300, 30);
    for (Lane& lane : rank1.trace().lanes)
        lane.rank = 1;
    Trace job = rank0.trace();
    merge_trace_into(job, rank1.trace());
    job.sort();
    return job;
}

std::map<std::string, OpWorkTotals> by_name(const std::vector<OpWorkTotals>& totals) {
    std::map<std::string, OpWorkTotals> out;
    for (const OpWorkTotals& t : totals)
        out[t.name] = t;
    return out;
}

TEST(OpWorkProjection, EachOpGetsItsOwnRanksKernelsOnly) {
    const Trace job = two_rank_op_job();
    auto job_totals = by_name(total_op_work_by_name(job));
    EXPECT_EQ(job_totals["conv_fwd"].count, 2);
    EXPECT_EQ(job_totals["conv_fwd"].device_ns, 100 + 300);
    EXPECT_EQ(job_totals["add_bias"].device_ns, 10 + 30);

    const auto ranks = total_op_work_by_rank(job);
    ASSERT_EQ(ranks.size(), 2u);
    auto rank0 = by_name(ranks.at(0));
    auto rank1 = by_name(ranks.at(1));
    EXPECT_EQ(rank0["conv_fwd"].count, 1);
    EXPECT_EQ(rank0["conv_fwd"].device_ns, 100);
    EXPECT_EQ(rank1["conv_fwd"].device_ns, 300);
    EXPECT_EQ(rank1["add_bias"].device_ns, 30);
}

TEST(OpWorkProjection, NvtxRangesJoinTheirOwnRanksLaunches) {
    const Trace job = two_rank_op_job();
    std::map<std::int32_t, NvtxRangeGpuTime> forward;
    for (const NvtxRangeGpuTime& r : project_nvtx_ranges_to_gpu(job))
        forward[r.rank] = r;
    ASSERT_EQ(forward.size(), 2u);
    // Inclusive: the phase holds every kernel launched in it, nested ops' too.
    EXPECT_EQ(forward[0].kernel_count, 2);
    EXPECT_EQ(forward[0].kernel_ns, 110);
    EXPECT_EQ(forward[1].kernel_ns, 330);
}

TEST(OpWorkProjection, AKernelCountsForItsInnermostOpOnly) {
    HandBuiltTrace one = conv_step(100, 10);
    one.trace().sort();
    auto totals = by_name(total_op_work_by_name(one.trace()));
    EXPECT_EQ(totals["conv_fwd"].device_ns, 100) << "the bias kernel is the bias op's";
    EXPECT_EQ(totals["add_bias"].device_ns, 10);

    // The inclusive projection of the same op ranges keeps the nested kernel.
    const auto inclusive = project_host_ranges_to_gpu(one.trace(), [](const Activity& a) {
        return a.kind == ActivityKind::HostOp && a.flops > 0.0F;
    });
    std::map<std::string, std::int64_t> kernel_ns;
    for (const NvtxRangeGpuTime& r : inclusive)
        kernel_ns[r.name] = r.kernel_ns;
    EXPECT_EQ(kernel_ns["conv_fwd"], 110);
    EXPECT_EQ(kernel_ns["add_bias"], 10);
}

TEST(OpWorkProjection, AHostOpsTimeLeavesOutItsNestedOps) {
    HandBuiltTrace cpu;
    Activity& conv = cpu.host_op(7, "conv_fwd", 0, 500);
    conv.flops = 1e6F;
    Activity& round = cpu.host_op(7, "round_storage", 100, 250, 1);
    round.bytes = 64;
    Activity& gemm = cpu.host_op(7, "gemm", 600, 700);
    gemm.flops = 1e3F;
    Activity& other = cpu.host_op(8, "conv_fwd", 50, 150);  // another thread: not nested
    other.flops = 1e6F;
    cpu.trace().sort();
    auto totals = by_name(total_op_work_by_name(cpu.trace()));
    EXPECT_EQ(totals["conv_fwd"].device_ns, 500 - 150 + 100);
    EXPECT_EQ(totals["round_storage"].device_ns, 150);
    EXPECT_EQ(totals["gemm"].device_ns, 100);
}

}  // namespace
}  // namespace trainscope::profiler
