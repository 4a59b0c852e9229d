#include <gtest/gtest.h>

#include "HandBuiltTrace.hpp"
#include "profiler/analysis/CommunicationNames.hpp"
#include "profiler/analysis/CopyComputeOverlapAnalysis.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/KernelBreakdownAnalysis.hpp"
#include "profiler/analysis/NvtxProjectionAnalysis.hpp"
#include "profiler/analysis/TensorCoreAnalysis.hpp"
#include "profiler/analysis/TraceHealthAnalysis.hpp"
#include "profiler/trace/TraceNesting.hpp"

namespace trainscope::profiler {
namespace {

using testing::HandBuiltTrace;

// Two streams on device 0: stream 7 runs [0,100) and [300,400); stream 20 runs
// [50,150) and [1000,1100). Union: [0,150) + [300,400) + [1000,1100) = 350 ns busy,
// span 1100, gaps 150 (short) and 600 (long) with a 500 ns threshold.
HandBuiltTrace two_overlapping_streams() {
    HandBuiltTrace t;
    t.kernel(0, 7, "volta_sgemm_128x64_nn", 0, 100);
    t.kernel(0, 7, "implicit_convolve_sgemm", 300, 400);
    t.kernel(0, 20, "at::native::vectorized_elementwise_kernel", 50, 150);
    t.kernel(0, 20, "volta_sgemm_128x64_nn", 1000, 1100);
    return t;
}

TEST(GpuBusyAnalysis, UnionOfKernelsOverTheKernelSpanWithGapSplit) {
    auto t = two_overlapping_streams();
    const auto busy = analyze_gpu_busy(t.trace(), GpuBusyOptions{500, false});
    ASSERT_EQ(busy.size(), 1u);
    EXPECT_EQ(busy[0].device, 0);
    EXPECT_EQ(busy[0].span_ns, 1100);
    EXPECT_EQ(busy[0].busy_ns, 350);
    EXPECT_EQ(busy[0].idle_ns, 750);
    EXPECT_EQ(busy[0].short_gap_idle_ns, 150);
    EXPECT_EQ(busy[0].short_gap_count, 1);
    EXPECT_EQ(busy[0].long_gap_idle_ns, 600);
    EXPECT_EQ(busy[0].long_gap_count, 1);
    EXPECT_DOUBLE_EQ(busy[0].busy_fraction, 350.0 / 1100.0);
}

TEST(GpuBusyAnalysis, DevicesAreSeparateAndCopiesOptional) {
    auto t = two_overlapping_streams();
    t.kernel(1, 7, "k", 0, 10);
    t.memcpy(0, 7, 150, 300, 4096);
    const auto kernels_only = analyze_gpu_busy(t.trace());
    ASSERT_EQ(kernels_only.size(), 2u);
    EXPECT_EQ(kernels_only[0].busy_ns, 350);
    EXPECT_EQ(kernels_only[1].device, 1);
    EXPECT_EQ(kernels_only[1].busy_ns, 10);
    const auto with_copies = analyze_gpu_busy(t.trace(), GpuBusyOptions{500, true});
    EXPECT_EQ(with_copies[0].busy_ns, 500);
}

TEST(GpuBusyAnalysis, AWindowClipsWorkToIt) {
    auto t = two_overlapping_streams();
    const GpuBusyOptions options{500, false};
    // [100, 350): the tail of [0,150) is 50 ns, the head of [300,400) another 50 ns.
    const auto busy = analyze_gpu_busy(t.trace(), options, TimeWindow{100, 350});
    ASSERT_EQ(busy.size(), 1u);
    EXPECT_EQ(busy[0].busy_ns, 100);
    EXPECT_EQ(busy[0].span_begin_ns, 100);
    EXPECT_EQ(busy[0].span_end_ns, 350);
    // Between the kernels: no busy device at all.
    EXPECT_TRUE(analyze_gpu_busy(t.trace(), options, TimeWindow{500, 900}).empty());
}

TEST(KernelBreakdownAnalysis, AWindowTakesTheWorkStartingInIt) {
    auto t = two_overlapping_streams();
    // [40, 1000): the kernels starting at 50 and 300; the one at 1000 starts at the end.
    const auto b = analyze_kernel_breakdown(t.trace(), TimeWindow{40, 1000});
    ASSERT_EQ(b.by_name.size(), 2u);
    EXPECT_EQ(b.total_ns, 200);
    EXPECT_EQ(b.by_name[0].stats.count, 1);
    EXPECT_EQ(b.by_name[0].stats.total_ns, 100);  // whole, not clipped
    // Adjacent windows share no activity.
    const auto rest = analyze_kernel_breakdown(t.trace(), TimeWindow{1000, 2000});
    ASSERT_EQ(rest.by_name.size(), 1u);
    EXPECT_EQ(rest.by_name[0].name, "volta_sgemm_128x64_nn");
    EXPECT_EQ(analyze_kernel_breakdown(t.trace(), TimeWindow{}).total_ns,
              analyze_kernel_breakdown(t.trace()).total_ns);
}

TEST(KernelBreakdownAnalysis, GroupsByNameAndCategory) {
    auto t = two_overlapping_streams();
    t.memcpy(0, 7, 150, 250, 1024);
    const auto b = analyze_kernel_breakdown(t.trace());
    EXPECT_EQ(b.total_ns, 500);
    ASSERT_EQ(b.by_name.size(), 4u);
    EXPECT_EQ(b.by_name[0].name, "volta_sgemm_128x64_nn");
    EXPECT_EQ(b.by_name[0].category, KernelCategory::Gemm);
    EXPECT_EQ(b.by_name[0].stats.count, 2);
    EXPECT_EQ(b.by_name[0].stats.total_ns, 200);
    EXPECT_DOUBLE_EQ(b.by_name[0].stats.mean_ns, 100.0);
    EXPECT_DOUBLE_EQ(b.by_name[0].stats.share, 0.4);
    ASSERT_EQ(b.by_category.size(), 4u);
    EXPECT_EQ(b.by_category[0].category, KernelCategory::Gemm);
    double shares = 0.0;
    for (const auto& c : b.by_category)
        shares += c.stats.share;
    EXPECT_NEAR(shares, 1.0, 1e-12);
}

TEST(KernelCategory, ClassifiesTypicalNames) {
    EXPECT_EQ(classify_kernel("volta_scudnn_128x64_relu_interior_nn_v1"),
              KernelCategory::Convolution);
    EXPECT_EQ(classify_kernel("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw"),
              KernelCategory::Convolution);
    EXPECT_EQ(classify_kernel("cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>"),
              KernelCategory::Normalization);
    EXPECT_EQ(classify_kernel("void at::native::batch_norm_backward_kernel<float>"),
              KernelCategory::Normalization);
    EXPECT_EQ(classify_kernel("ampere_sgemm_128x64_tn"), KernelCategory::Gemm);
    EXPECT_EQ(classify_kernel("void at::native::reduce_kernel<512, 1>"), KernelCategory::Reduction);
    EXPECT_EQ(
        classify_kernel("void at::native::(anonymous namespace)::max_pool_forward_nchw<float>"),
        KernelCategory::Reduction);
    EXPECT_EQ(
        classify_kernel(
            "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>"),
        KernelCategory::Elementwise);
    EXPECT_EQ(classify_kernel("void at::native::multi_tensor_apply_kernel<FusedAdamMathFunctor>"),
              KernelCategory::Optimizer);
    EXPECT_EQ(classify_kernel("Memcpy HtoD (Pageable -> Device)"), KernelCategory::MemcpyMemset);
    EXPECT_EQ(classify_kernel("my_custom_kernel"), KernelCategory::Other);
}

// Asked once per name while a table still grows: a name added after the first question is
// classified too, and an id the table does not hold is no communication kernel's.
TEST(KernelCategory, CommunicationNamesFollowTheTableAndRefuseUnknownIds) {
    StringTable strings;
    CommunicationNames names;
    const StringId gemm = strings.intern("ampere_sgemm_128x64_tn");
    EXPECT_FALSE(names.is_communication(gemm, strings));
    const StringId nccl = strings.intern("ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    EXPECT_TRUE(names.is_communication(nccl, strings));
    EXPECT_TRUE(names.is_communication(nccl, strings));
    EXPECT_FALSE(names.is_communication(static_cast<StringId>(strings.size()), strings));
    EXPECT_FALSE(names.is_communication(kNoString, strings));
}

TEST(TensorCoreAnalysis, NamePatternsAndShare) {
    EXPECT_TRUE(uses_tensor_cores("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64"));
    EXPECT_TRUE(uses_tensor_cores("volta_h884gemm_64x64_ldg8_nn"));
    EXPECT_TRUE(uses_tensor_cores(
        "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128>"));
    EXPECT_TRUE(uses_tensor_cores("ampere_fp16_s1688gemm_fp16_128x128_ldg8_f2f_tn"));
    EXPECT_FALSE(uses_tensor_cores("volta_sgemm_128x64_nn"));
    EXPECT_FALSE(uses_tensor_cores("volta_scudnn_128x64_relu_interior_nn_v1"));

    HandBuiltTrace t;
    t.kernel(0, 7, "volta_h884gemm_64x64_ldg8_nn", 0, 300);
    t.kernel(0, 7, "volta_sgemm_128x64_nn", 300, 400);
    const auto usage = analyze_tensor_core_usage(t.trace());
    EXPECT_EQ(usage.tensor_core_kernel_count, 1);
    EXPECT_EQ(usage.kernel_count, 2);
    EXPECT_DOUBLE_EQ(usage.share, 0.75);
    EXPECT_EQ(usage.kernel_names, std::vector<std::string>{"volta_h884gemm_64x64_ldg8_nn"});
}

TEST(CopyComputeOverlapAnalysis, IntersectionOfCopyAndKernelUnions) {
    HandBuiltTrace t;
    t.kernel(0, 7, "k", 0, 100);
    t.memcpy(0, 20, 50, 250, 1 << 20);  // 50 ns under the kernel, 150 exposed
    const auto overlap = analyze_copy_compute_overlap(t.trace());
    ASSERT_EQ(overlap.size(), 1u);
    EXPECT_EQ(overlap[0].copy_ns, 200);
    EXPECT_EQ(overlap[0].compute_ns, 100);
    EXPECT_EQ(overlap[0].overlap_ns, 50);
    EXPECT_EQ(overlap[0].exposed_copy_ns, 150);
    EXPECT_DOUBLE_EQ(overlap[0].overlapped_copy_fraction, 0.25);
}

TEST(NvtxProjectionAnalysis, TotalsByNameSumTheRangesLargestHostTimeFirst) {
    // What `trainscope analyze` prints and nvtx.csv holds, from one function.
    HandBuiltTrace t;
    t.nvtx_range(1, "step", 0, 1000);
    t.nvtx_range(1, "forward", 10, 300);
    t.nvtx_range(1, "step", 1000, 1500);
    t.nvtx_range(1, "forward", 1010, 1100);
    t.runtime_call(1, "cudaLaunchKernel", 20, 30, 1);
    t.runtime_call(1, "cudaLaunchKernel", 1020, 1030, 2);
    t.kernel(0, 7, "a", 100, 200, 1);
    t.kernel(0, 7, "b", 1100, 1400, 2);
    assign_nesting_depths(t.trace());
    const auto totals = total_nvtx_ranges_by_name(project_nvtx_ranges_to_gpu(t.trace()));
    ASSERT_EQ(totals.size(), 2u);
    EXPECT_EQ(totals[0].name, "step");
    EXPECT_EQ(totals[0].count, 2);
    EXPECT_EQ(totals[0].host_ns, 1500);
    EXPECT_EQ(totals[0].kernel_count, 2);
    EXPECT_EQ(totals[0].kernel_ns, 400);
    EXPECT_EQ(totals[0].gpu_busy_ns, 400);
    EXPECT_EQ(totals[1].name, "forward");
    EXPECT_EQ(totals[1].host_ns, 290 + 90);
    EXPECT_EQ(totals[1].kernel_ns, 400);
}

TEST(NvtxProjectionAnalysis, NestedRangesCollectKernelsLaunchedInside) {
    HandBuiltTrace t;
    t.nvtx_range(1, "step", 0, 1000);
    t.nvtx_range(1, "forward", 10, 400);
    t.nvtx_range(1, "backward", 400, 900);
    t.runtime_call(1, "cudaLaunchKernel", 20, 30, 1);
    t.runtime_call(1, "cudaLaunchKernel", 40, 50, 2);
    t.runtime_call(1, "cudaMemcpyAsync", 500, 510, 3);
    t.runtime_call(1, "cudaLaunchKernel", 950, 960, 4);  // inside step only
    t.runtime_call(2, "cudaLaunchKernel", 100, 110, 5);  // another thread: never counted
    t.kernel(0, 7, "a", 100, 200, 1);
    t.kernel(0, 7, "b", 150, 350, 2);
    t.memcpy(0, 7, 600, 700, 64, 3);
    t.kernel(0, 7, "c", 1200, 1300, 4);
    t.kernel(0, 7, "d", 2000, 2100, 5);
    assign_nesting_depths(t.trace());
    const auto ranges = project_nvtx_ranges_to_gpu(t.trace());
    ASSERT_EQ(ranges.size(), 3u);
    std::map<std::string, NvtxRangeGpuTime> by_name;
    for (const auto& r : ranges)
        by_name[r.name] = r;
    EXPECT_EQ(by_name["step"].depth, 0);
    EXPECT_EQ(by_name["step"].kernel_count, 3);
    EXPECT_EQ(by_name["step"].kernel_ns, 400);
    EXPECT_EQ(by_name["step"].copy_count, 1);
    EXPECT_EQ(by_name["step"].gpu_busy_ns, 450);  // [100,350) + [600,700) + [1200,1300)
    EXPECT_EQ(by_name["step"].gpu_end_ns, 1300);
    EXPECT_EQ(by_name["forward"].depth, 1);
    EXPECT_EQ(by_name["forward"].kernel_count, 2);
    EXPECT_EQ(by_name["forward"].kernel_ns, 300);
    EXPECT_EQ(by_name["forward"].gpu_busy_ns, 250);
    EXPECT_EQ(by_name["backward"].kernel_count, 0);
    EXPECT_EQ(by_name["backward"].copy_ns, 100);
}

TEST(TraceHealthAnalysis, FindsSkewWindowDurationAndMissingLaunchProblems) {
    HandBuiltTrace t;
    t.runtime_call(1, "cudaLaunchKernel", 100, 110, 1);
    t.kernel(0, 7, "fine", 120, 130, 1);
    t.runtime_call(1, "cudaLaunchKernel", 200, 210, 2);
    t.kernel(0, 7, "early", 150, 160, 2);  // 50 ns before its launch
    t.kernel(0, 7, "zero", 300, 300, 0);
    t.kernel(0, 7, "negative", 400, 390, 0);
    t.kernel(0, 7, "orphan", 500, 510, 99);
    t.kernel(0, 7, "graph", 600, 610, 100).graph_id = 3;
    t.kernel(0, 7, "late", 5000, 5010, 0);
    t.trace().capture_begin_ns = 0;
    t.trace().capture_end_ns = 1000;
    t.trace().dropped_records = 7;
    const auto h = analyze_trace_health(t.trace());
    EXPECT_EQ(h.dropped_records, 7);
    EXPECT_EQ(h.gpu_work_before_launch, 1);
    EXPECT_EQ(h.max_clock_skew_ns, 50);
    EXPECT_EQ(h.zero_duration, 1);
    EXPECT_EQ(h.negative_duration, 1);
    EXPECT_EQ(h.gpu_work_without_launch, 2);
    EXPECT_EQ(h.graph_kernels_without_launch, 1);
    EXPECT_EQ(h.outside_capture_window, 1);
    EXPECT_FALSE(h.healthy());
}

// What the live capture knows about lost and untimed records comes through the trace's
// metadata; a clean trace stays healthy, either count makes it unhealthy.
TEST(TraceHealthAnalysis, RefusedBuffersAndUntimedRecordsMakeATraceUnhealthy) {
    HandBuiltTrace t;
    t.runtime_call(1, "cudaLaunchKernel", 100, 110, 1);
    t.kernel(0, 7, "fine", 120, 130, 1);
    t.trace().metadata["cupti.refused_buffer_requests"] = "0";
    t.trace().metadata["cupti.records_without_timestamps"] = "0";
    EXPECT_TRUE(analyze_trace_health(t.trace()).healthy());
    t.trace().metadata["cupti.refused_buffer_requests"] = "3";
    auto h = analyze_trace_health(t.trace());
    EXPECT_EQ(h.refused_buffer_requests, 3);
    EXPECT_FALSE(h.healthy());
    t.trace().metadata["cupti.refused_buffer_requests"] = "0";
    t.trace().metadata["cupti.records_without_timestamps"] = "2";
    h = analyze_trace_health(t.trace());
    EXPECT_EQ(h.records_without_timestamps, 2);
    EXPECT_FALSE(h.healthy());
}

TEST(TraceNesting, DepthFollowsContainment) {
    HandBuiltTrace t;
    t.nvtx_range(1, "outer", 0, 100);
    t.nvtx_range(1, "inner", 10, 50);
    t.nvtx_range(1, "innermost", 20, 30);
    t.nvtx_range(1, "sibling", 50, 90);
    t.nvtx_range(1, "after", 200, 300);
    assign_nesting_depths(t.trace());
    std::map<std::string, int> depth;
    for (const auto& a : t.trace().activities)
        depth[t.trace().strings.at(a.name)] = a.depth;
    EXPECT_EQ(depth["outer"], 0);
    EXPECT_EQ(depth["inner"], 1);
    EXPECT_EQ(depth["innermost"], 2);
    EXPECT_EQ(depth["sibling"], 1);
    EXPECT_EQ(depth["after"], 0);
}

}  // namespace
}  // namespace trainscope::profiler
