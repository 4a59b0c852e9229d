// A CPU-backend trace's host ops are its device's work: classified like kernels, in the
// kernel breakdown, attributed to the NVTX ranges of their thread, and counted in the
// busy share of the threads that run them.
#include <gtest/gtest.h>

#include "HandBuiltTrace.hpp"
#include "profiler/analysis/ComputeThreadBusy.hpp"
#include "profiler/analysis/KernelBreakdownAnalysis.hpp"
#include "profiler/analysis/KernelCategory.hpp"
#include "profiler/analysis/NvtxProjectionAnalysis.hpp"

namespace trainscope::profiler {
namespace {

using testing::HandBuiltTrace;

TEST(HostOpWork, BackendOpNamesHaveTheirCategories) {
    EXPECT_EQ(classify_kernel("conv_fwd"), KernelCategory::Convolution);
    EXPECT_EQ(classify_kernel("conv_bwd_filter"), KernelCategory::Convolution);
    EXPECT_EQ(classify_kernel("gemm"), KernelCategory::Gemm);
    EXPECT_EQ(classify_kernel("relu_bwd"), KernelCategory::Elementwise);
    EXPECT_EQ(classify_kernel("add_bias"), KernelCategory::Elementwise);
    EXPECT_EQ(classify_kernel("convert"), KernelCategory::Elementwise) << "not a convolution";
    EXPECT_EQ(classify_kernel("round_storage"), KernelCategory::Elementwise);
    EXPECT_EQ(classify_kernel("max_pool_bwd"), KernelCategory::Reduction);
    EXPECT_EQ(classify_kernel("bias_bwd"), KernelCategory::Reduction);
    EXPECT_EQ(classify_kernel("flag_non_finite"), KernelCategory::Reduction);
    // PyTorch's operators of the same work, where a PyTorch CPU trace is compared with one
    // of trainscope's: Linear's products are GEMMs, ReLU is elementwise.
    EXPECT_EQ(classify_kernel("aten::addmm"), KernelCategory::Gemm);
    EXPECT_EQ(classify_kernel("aten::mm"), KernelCategory::Gemm);
    EXPECT_EQ(classify_kernel("aten::clamp_min"), KernelCategory::Elementwise);
    EXPECT_EQ(classify_kernel("aten::threshold_backward"), KernelCategory::Elementwise);
    EXPECT_EQ(classify_kernel("aten::mkldnn_convolution"), KernelCategory::Convolution);
    EXPECT_EQ(classify_kernel("aten::max_pool2d_with_indices"), KernelCategory::Reduction);
    EXPECT_EQ(classify_kernel("mm"), KernelCategory::Other) << "only PyTorch's aten::mm";
    EXPECT_EQ(classify_kernel("batch_norm_bwd"), KernelCategory::Normalization);
    EXPECT_EQ(classify_kernel("adam_update"), KernelCategory::Optimizer);
    EXPECT_EQ(classify_kernel("copy_h2d"), KernelCategory::MemcpyMemset);
    // Kernel names that merely contain an op name keep their pattern's category.
    EXPECT_EQ(classify_kernel("void at::native::elementwise_kernel<add>"),
              KernelCategory::Elementwise);
    EXPECT_EQ(classify_work(ActivityKind::Memset, "gemm"), KernelCategory::MemcpyMemset);
}

TEST(HostOpWork, BreakdownCountsHostOpsOfACpuTraceOnly) {
    HandBuiltTrace cpu;
    cpu.host_op(7, "conv_fwd", 0, 100);
    cpu.host_op(7, "conv_fwd", 200, 500);  // the longest conv_fwd
    cpu.host_op(7, "adam_update", 600, 650);
    cpu.nvtx_range(7, "step", 0, 700);
    const KernelBreakdown all = analyze_kernel_breakdown(cpu.trace());
    ASSERT_EQ(all.by_name.size(), 2u);
    EXPECT_EQ(all.total_ns, 450);
    EXPECT_EQ(all.by_name[0].name, "conv_fwd");
    EXPECT_EQ(all.by_name[0].category, KernelCategory::Convolution);
    EXPECT_EQ(all.by_name[0].stats.count, 2);
    EXPECT_EQ(all.by_name[0].longest, 1u);
    EXPECT_EQ(all.by_name[1].category, KernelCategory::Optimizer);

    // A window takes the work that starts in it.
    const KernelBreakdown window = analyze_kernel_breakdown(cpu.trace(), {150, 600});
    ASSERT_EQ(window.by_name.size(), 1u);
    EXPECT_EQ(window.total_ns, 300);

    // Beside GPU work the host ops are launches, not work.
    HandBuiltTrace gpu = cpu;
    gpu.kernel(0, 7, "implicit_convolve_sgemm", 10, 30);
    const KernelBreakdown g = analyze_kernel_breakdown(gpu.trace());
    ASSERT_EQ(g.by_name.size(), 1u);
    EXPECT_EQ(g.total_ns, 20);
}

TEST(HostOpWork, NestedHostOpsCountByTheirSelfTime) {
    // A PyTorch CPU trace nests its operators: summed durations would count the inner
    // op's time twice (240 ns for 100 ns of work).
    HandBuiltTrace t;
    t.host_op(7, "aten::conv2d", 0, 100);
    t.host_op(7, "aten::convolution", 10, 90);
    t.host_op(7, "aten::mkldnn_convolution", 20, 80);
    t.host_op(7, "aten::relu", 100, 130);
    const KernelBreakdown b = analyze_kernel_breakdown(t.trace());
    EXPECT_EQ(b.total_ns, 130) << "the time the ops cover, each instant once";
    ASSERT_EQ(b.by_name.size(), 4u);
    EXPECT_EQ(b.by_name[0].name, "aten::mkldnn_convolution");
    EXPECT_EQ(b.by_name[0].stats.total_ns, 60);
    EXPECT_EQ(b.by_name[1].stats.total_ns, 30);  // aten::relu
    EXPECT_EQ(b.by_name[2].stats.total_ns, 20);  // aten::conv2d
    EXPECT_EQ(b.by_name[3].stats.total_ns, 20);  // aten::convolution
    double shares = 0.0;
    for (const auto& c : b.by_category)
        shares += c.stats.share;
    EXPECT_NEAR(shares, 1.0, 1e-12);
}

TEST(HostOpWork, NvtxRangesGetTheOpsOfTheirThread) {
    HandBuiltTrace t;
    t.nvtx_range(7, "step", 0, 1000);
    t.nvtx_range(7, "forward", 0, 400);
    t.nvtx_range(7, "backward", 400, 1000);
    t.host_op(7, "conv_fwd", 10, 210);
    t.host_op(7, "gemm", 220, 390);
    t.host_op(7, "conv_bwd_filter", 410, 900);
    t.host_op(7, "copy_h2d", 420, 440, 1);  // nested: counts, the union does not grow
    t.host_op(8, "gemm", 100, 600);         // another thread: not this range's work
    t.host_op(7, "fill", 1000, 1100);       // after the step
    t.trace().sort();
    std::map<std::string, NvtxRangeGpuTime> by_name;
    for (const NvtxRangeGpuTime& r : project_nvtx_ranges_to_gpu(t.trace()))
        by_name[r.name] = r;
    EXPECT_EQ(by_name["forward"].kernel_count, 2);
    EXPECT_EQ(by_name["forward"].kernel_ns, 200 + 170);
    EXPECT_EQ(by_name["forward"].gpu_busy_ns, 370);
    EXPECT_EQ(by_name["backward"].kernel_count, 2);
    EXPECT_EQ(by_name["backward"].kernel_ns, 490 + 20);
    EXPECT_EQ(by_name["backward"].gpu_busy_ns, 490);
    EXPECT_EQ(by_name["step"].kernel_ns, 370 + 510);
    EXPECT_EQ(by_name["step"].gpu_begin_ns, 10);
    EXPECT_EQ(by_name["step"].gpu_end_ns, 900);
}

TEST(HostOpWork, ComputeThreadBusyIsTheShareOfTheOpThreads) {
    HandBuiltTrace t;
    t.host_op(7, "conv_fwd", 0, 100);
    t.host_op(7, "copy_h2d", 20, 40, 1);  // nested: thread 7 is busy once
    t.host_op(7, "gemm", 150, 200);
    t.host_op(8, "gemm", 50, 150);
    t.nvtx_range(9, "step", 0, 400);  // a thread without ops is no compute thread
    const ComputeThreadBusy busy = ComputeThreadBusy::from_host_ops(t.trace());
    EXPECT_EQ(busy.thread_count(), 2);
    EXPECT_DOUBLE_EQ(busy.busy_thread_ns(0, 200), 100 + 50 + 100);
    EXPECT_DOUBLE_EQ(busy.busy_share(0, 200), 250.0 / 400.0);
    EXPECT_DOUBLE_EQ(busy.busy_share(50, 100), 1.0);   // both threads busy
    EXPECT_DOUBLE_EQ(busy.busy_share(100, 150), 0.5);  // only thread 8
    EXPECT_DOUBLE_EQ(busy.busy_share(75, 125), 0.75);  // half of it both, half one
    EXPECT_DOUBLE_EQ(busy.busy_share(200, 400), 0.0);
    EXPECT_DOUBLE_EQ(busy.busy_thread_ns(-1e300, 1e300), 250.0);
    EXPECT_DOUBLE_EQ(ComputeThreadBusy::from_host_ops(Trace{}).busy_share(0, 10), 0.0);
}

}  // namespace
}  // namespace trainscope::profiler
