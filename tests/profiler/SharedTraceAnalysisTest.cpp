// Analyses on the traces recorded by others, checked against TraceLens's own
// regression files (../shared/traces/kineto/*.expected).
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "CsvFile.hpp"
#include "TraceFixtures.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/KernelBreakdownAnalysis.hpp"
#include "profiler/analysis/NvtxProjectionAnalysis.hpp"
#include "profiler/analysis/StepSpanBusyAnalysis.hpp"
#include "profiler/analysis/TensorCoreAnalysis.hpp"
#include "profiler/analysis/TraceHealthAnalysis.hpp"
#include "profiler/analysis/TracelensTimeline.hpp"

namespace trainscope::profiler {
namespace {

using testing::kineto_fixture;
using testing::read_csv;
using testing::shared_trace_path;

void expect_relative(double actual, double expected, const std::string& what) {
    const double tolerance = 1e-6 * std::max(std::abs(expected), 1e-9);
    EXPECT_NEAR(actual, expected, tolerance) << what;
}

class TracelensReference : public ::testing::TestWithParam<std::string> {};

TEST_P(TracelensReference, GpuTimelineMatchesEveryRow) {
    const Trace& trace = kineto_fixture(GetParam());
    const auto csv =
        read_csv(shared_trace_path("kineto/" + GetParam() + ".expected/gpu_timeline.csv"));
    ASSERT_GE(csv.size(), 2u);
    ASSERT_EQ(csv[0], (std::vector<std::string>{"type", "time ms", "percent"}));
    const auto rows = tracelens_gpu_timeline(trace);
    ASSERT_EQ(rows.size(), csv.size() - 1);
    for (std::size_t i = 1; i < csv.size(); ++i) {
        const auto& expected = csv[i];
        ASSERT_EQ(expected.size(), 3u);
        const auto& row = rows[i - 1];
        EXPECT_EQ(row.type, expected[0]);
        expect_relative(row.time_ms, std::stod(expected[1]), expected[0] + " time ms");
        expect_relative(row.percent, std::stod(expected[2]), expected[0] + " percent");
    }
}

TEST_P(TracelensReference, KernelSummaryMatchesPerKernelName) {
    const Trace& trace = kineto_fixture(GetParam());
    const auto csv =
        read_csv(shared_trace_path("kineto/" + GetParam() + ".expected/kernel_summary.csv"));
    ASSERT_GE(csv.size(), 2u);
    std::map<std::string, std::size_t> column;
    for (std::size_t c = 0; c < csv[0].size(); ++c)
        column[csv[0][c]] = c;
    // TraceLens splits a kernel name by parent op; add those rows up per name.
    struct Expected {
        double sum_us = 0;
        std::int64_t count = 0;
        double min_us = 1e300;
        double max_us = 0;
    };
    std::map<std::string, Expected> expected;
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto& row = csv[r];
        auto& e = expected[row.at(column.at("Kernel name"))];
        e.sum_us += std::stod(row.at(column.at("Kernel duration (µs)_sum")));
        e.count += std::stoll(row.at(column.at("Kernel duration (µs)_count")));
        e.min_us = std::min(e.min_us, std::stod(row.at(column.at("Kernel duration (µs)_min"))));
        e.max_us = std::max(e.max_us, std::stod(row.at(column.at("Kernel duration (µs)_max"))));
    }
    const auto breakdown = analyze_kernel_breakdown(trace);
    std::size_t kernel_names = 0;
    for (const auto& entry : breakdown.by_name) {
        if (entry.category == KernelCategory::MemcpyMemset)
            continue;
        ++kernel_names;
        auto it = expected.find(entry.name);
        ASSERT_NE(it, expected.end()) << entry.name;
        EXPECT_EQ(entry.stats.count, it->second.count) << entry.name;
        expect_relative(static_cast<double>(entry.stats.total_ns) / 1e3, it->second.sum_us,
                        entry.name);
        expect_relative(static_cast<double>(entry.stats.min_ns) / 1e3, it->second.min_us,
                        entry.name);
        expect_relative(static_cast<double>(entry.stats.max_ns) / 1e3, it->second.max_us,
                        entry.name);
    }
    EXPECT_EQ(kernel_names, expected.size());
}

INSTANTIATE_TEST_SUITE_P(H100, TracelensReference,
                         ::testing::Values("h100_bert_small_inference",
                                           "h100_vit_image_classification"));

TEST(SharedTraceAnalysis, ResNetBusyOverKernelSpanAndHealth) {
    const Trace& trace = kineto_fixture("v100_resnet50_training");
    const auto busy = analyze_gpu_busy(trace);
    ASSERT_EQ(busy.size(), 1u);
    EXPECT_EQ(busy[0].device, 0);
    // Kernels never overlap on the single stream, so the union is the plain sum.
    EXPECT_EQ(busy[0].busy_ns, 591532000);
    EXPECT_EQ(busy[0].idle_ns, busy[0].short_gap_idle_ns + busy[0].long_gap_idle_ns);
    EXPECT_GT(busy[0].busy_fraction, 0.5);
    EXPECT_LT(busy[0].busy_fraction, 0.8);
    const auto health = analyze_trace_health(trace);
    EXPECT_EQ(health.gpu_work_without_launch, 0);
    EXPECT_EQ(health.gpu_work_before_launch, 0);
    EXPECT_EQ(health.negative_duration, 0);
    EXPECT_EQ(health.outside_capture_window, 0);
    const auto tensor = analyze_tensor_core_usage(trace);
    EXPECT_EQ(tensor.kernel_count, 8772);
}

// TensorBoard's overview page reported 55.51 % GPU utilization for this trace (kernel
// busy time over the stretched profiler-step span); busy over the kernel span is higher
// because that span starts at the first kernel, 71 ms after step #5 begins.
TEST(SharedTraceAnalysis, ResNetStepSpanUtilizationMatchesTensorBoard) {
    const Trace& trace = kineto_fixture("v100_resnet50_training");
    const auto steps = analyze_step_span_busy(trace);
    EXPECT_EQ(steps.step_count, 6);  // ProfilerStep#5 .. #10
    EXPECT_EQ(steps.busy_ns, 591532000);
    EXPECT_NEAR(steps.busy_fraction * 100.0, 55.51, 0.005);
    const auto kernel_span = analyze_gpu_busy(trace);
    EXPECT_GT(kernel_span.at(0).busy_fraction, steps.busy_fraction);
    EXPECT_LT(kernel_span.at(0).span_ns, steps.span_ns);
}

TEST(SharedTraceAnalysis, TwoStreamsBusyIsUnionNotSum) {
    const Trace& trace = kineto_fixture("a100_two_streams_add");
    const auto busy = analyze_gpu_busy(trace);
    ASSERT_EQ(busy.size(), 1u);
    EXPECT_LE(busy[0].busy_ns, 10728000);
    EXPECT_GT(busy[0].busy_ns, 0);
}

TEST(SharedTraceAnalysis, H100TensorCoreKernelsAreFound) {
    const auto usage = analyze_tensor_core_usage(kineto_fixture("h100_bert_small_inference"));
    EXPECT_GT(usage.tensor_core_kernel_count, 0);
    EXPECT_GT(usage.share, 0.3);  // the GEMMs dominate this trace
    EXPECT_LT(usage.share, 1.0);
}

TEST(SharedTraceAnalysis, AnnotationProjectionFollowsLaunches) {
    const Trace& trace = kineto_fixture("h100_bert_small_inference");
    const auto ranges = project_nvtx_ranges_to_gpu(trace);
    ASSERT_FALSE(ranges.empty());
    // The single ProfilerStep annotation launched every kernel of the step.
    EXPECT_EQ(ranges[0].name, "ProfilerStep#6");
    EXPECT_EQ(ranges[0].kernel_count, 60);
    EXPECT_EQ(ranges[0].kernel_ns, 307197);
}

}  // namespace
}  // namespace trainscope::profiler
