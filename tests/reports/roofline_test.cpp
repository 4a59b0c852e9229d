// The roofline analysis (reports/roofline): run-level achieved TFLOP/s and MFU, and the
// per-op placement under the two roofs with its verdict.
#include "reports/roofline/Roofline.hpp"

#include <gtest/gtest.h>

#include "profiler/trace/LaneRegistry.hpp"
#include "reports/html/SvgRoofline.hpp"
#include "reports/metrics/MetricTags.hpp"
#include "reports/roofline/RooflineExtent.hpp"

namespace trainscope::reports {
namespace {

std::optional<double> value_of(const std::vector<Metric>& metrics, std::string_view name) {
    for (const Metric& m : metrics) {
        if (m.name == name)
            return m.value;
    }
    return std::nullopt;
}

TEST(Roofline, MfuIsModelFlopsTimesThroughputOverThePeak) {
    const std::vector<Metric> metrics{{metric_tag::images_per_s, 1000.0},
                                      {metric_tag::model_flops_fwd_per_image, 1e6},
                                      {metric_tag::model_flops_bwd_per_image, 2e6},
                                      {metric_tag::peak_tflops, 0.01}};
    const auto derived = roofline_run_metrics(metrics);
    EXPECT_DOUBLE_EQ(value_of(derived, metric_tag::achieved_tflops).value(), 3e9 * 1e-12);
    EXPECT_DOUBLE_EQ(value_of(derived, metric_tag::mfu_pct).value(), 30.0);
    // Without a peak: achieved, no MFU; without model FLOPs: nothing.
    const auto no_peak = roofline_run_metrics({metrics.begin(), metrics.begin() + 3});
    EXPECT_TRUE(value_of(no_peak, metric_tag::achieved_tflops));
    EXPECT_FALSE(value_of(no_peak, metric_tag::mfu_pct));
    EXPECT_TRUE(roofline_run_metrics({metrics.front()}).empty());
}

// A job's images/s against the peak of every device it ran on: two GPUs, twice the roof.
TEST(Roofline, MfuOfATwoDeviceJobIsOverBothDevicesPeaks) {
    const std::vector<Metric> metrics{{metric_tag::images_per_s, 2000.0},
                                      {metric_tag::model_flops_fwd_per_image, 1e6},
                                      {metric_tag::model_flops_bwd_per_image, 2e6},
                                      {metric_tag::peak_tflops, 0.01}};
    const auto derived = roofline_run_metrics(metrics, 2);
    EXPECT_DOUBLE_EQ(value_of(derived, metric_tag::achieved_tflops).value(), 6e9 * 1e-12);
    EXPECT_DOUBLE_EQ(value_of(derived, metric_tag::mfu_pct).value(), 30.0);
}

profiler::Trace host_op_trace() {
    profiler::Trace trace;
    profiler::LaneRegistry lanes(trace);
    const profiler::LaneId lane = lanes.host_thread(1, 1);
    const auto op = [&](const char* name, std::int64_t start, std::int64_t ns, double flops,
                        std::int64_t bytes) {
        profiler::Activity a;
        a.kind = profiler::ActivityKind::HostOp;
        a.lane = lane;
        a.start_ns = start;
        a.end_ns = start + ns;
        a.name = trace.strings.intern(name);
        a.flops = flops;
        a.bytes = bytes;
        trace.activities.push_back(a);
    };
    // conv: 2 GFLOP over 1 MB in 10 ms -> 200 GFLOP/s at 2000 FLOP/byte.
    op("conv_fwd", 0, 10'000'000, 2e9, 1'000'000);
    // relu: 1 MFLOP over 8 MB in 1 ms -> 8 GB/s at 0.125 FLOP/byte.
    op("relu_fwd", 20'000'000, 1'000'000, 1e6, 8'000'000);
    op("synchronize", 30'000'000, 1'000'000, 0.0, 0);  // no work: not on the roofline
    lanes.finish();
    return trace;
}

TEST(Roofline, OpsSitUnderTheRoofThatBoundsThem) {
    // 1 TFLOP/s and 100 GB/s: the ridge at 10 FLOP/byte.
    const Roofs roofs{1e12, 100e9};
    EXPECT_DOUBLE_EQ(roofs.ridge_intensity(), 10.0);
    const auto rows = op_roofline(host_op_trace(), roofs);
    ASSERT_EQ(rows.size(), 2u);
    const OpRooflineRow& conv = rows[0];
    EXPECT_EQ(conv.name, "conv_fwd");
    EXPECT_EQ(conv.category, "convolution");
    EXPECT_DOUBLE_EQ(conv.intensity, 2000.0);
    EXPECT_DOUBLE_EQ(conv.achieved_flops_per_s, 200e9);
    EXPECT_EQ(conv.bound, Bound::compute);
    EXPECT_DOUBLE_EQ(conv.roof_pct, 20.0);
    const OpRooflineRow& relu = rows[1];
    EXPECT_DOUBLE_EQ(relu.intensity, 0.125);
    EXPECT_DOUBLE_EQ(relu.achieved_bytes_per_s, 8e9);
    EXPECT_EQ(relu.bound, Bound::memory);
    EXPECT_DOUBLE_EQ(relu.roof_pct, 8.0);  // 8 of the 100 GB/s roof
    // Unknown roofs: the placement, no verdict.
    const auto unknown = op_roofline(host_op_trace(), Roofs{});
    EXPECT_EQ(unknown[0].bound, Bound::unknown);
    EXPECT_DOUBLE_EQ(unknown[0].achieved_flops_per_s, 200e9);
}

// The one extent both charts draw on (the HTML SVG here, the GUI's RooflineAxes in
// tst_roofline): whole decades over the ops and the roofs.
TEST(Roofline, TheChartsExtentHoldsOpsAndRoofsInWholeDecades) {
    const Roofs roofs{1e12, 100e9};  // ridge at 10 FLOP/byte
    const auto rows = op_roofline(host_op_trace(), roofs);
    const RooflineExtent extent = roofline_extent(rows, roofs);
    // Intensity 0.125 .. 2000 and the ridge a decade either side: 1e-1 .. 1e4.
    EXPECT_EQ(extent.x_lo, -1);
    EXPECT_EQ(extent.x_hi, 4);
    // The memory roof at 0.1 FLOP/byte (10 GFLOP/s) and relu at 1 GFLOP/s .. the roof.
    EXPECT_EQ(extent.y_lo, 9);
    EXPECT_EQ(extent.y_hi, 12);
    // Without roofs the ops alone; nothing placed: one decade.
    const RooflineExtent ops_only = roofline_extent(rows, Roofs{});
    EXPECT_EQ(ops_only.x_lo, -1);
    EXPECT_EQ(ops_only.x_hi, 4);
    EXPECT_EQ(ops_only.y_hi, 12);  // 200 GFLOP/s: 1e11 rounds up to 1e12
    const RooflineExtent none = roofline_extent({}, Roofs{});
    EXPECT_EQ(none.x_lo, 0);
    EXPECT_EQ(none.x_hi, 1);
    // The SVG's first and last ticks are the extent's decades.
    const std::string svg = render_svg_roofline("ops", rows, roofs);
    EXPECT_NE(svg.find(">0.1</text>"), std::string::npos) << svg;
    EXPECT_NE(svg.find(">10k</text>"), std::string::npos) << svg;
}

}  // namespace
}  // namespace trainscope::reports
