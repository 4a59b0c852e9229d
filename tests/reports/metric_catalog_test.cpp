// The metric catalog: display names and units, directions, the interval that belongs to
// each statistic, and the comparison the CLI and the GUI share.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "reports/metrics/MetricCatalog.hpp"
#include "reports/metrics/MetricInterval.hpp"
#include "reports/metrics/RunComparison.hpp"

namespace trainscope::reports {
namespace {

TEST(MetricCatalog, ShowsWordsWithUnits) {
    EXPECT_EQ(metric_label("step_ms_median"), "Step time, median (ms)");
    EXPECT_EQ(metric_label("images_per_s"), "Throughput (images/s)");
    EXPECT_EQ(metric_label("peak_mem_bytes"), "Peak tensor memory (bytes)");
    EXPECT_EQ(metric_label("step_count"), "Measured steps");
    // Unknown tags keep their tag and the unit stored with them.
    EXPECT_EQ(metric_label("my_counter_ms", "ms"), "my_counter_ms (ms)");
    EXPECT_EQ(metric_label("my_counter"), "my_counter");
}

TEST(MetricCatalog, EveryTagOnceWithNameAndDescription) {
    std::set<std::string_view> tags;
    for (const MetricInfo& m : metric_catalog()) {
        EXPECT_TRUE(tags.insert(m.tag).second) << m.tag;
        EXPECT_FALSE(m.name.empty()) << m.tag;
        EXPECT_FALSE(m.description.empty()) << m.tag;
        EXPECT_EQ(m.name.find('_'), std::string_view::npos) << "not words: " << m.name;
    }
}

TEST(MetricCatalog, ImportantColumnsComeFirst) {
    EXPECT_EQ(metric_rank("images_per_s"), 0u);
    EXPECT_EQ(metric_rank("step_ms_median"), 1u);
    EXPECT_LT(metric_rank("test_accuracy"), metric_rank("step_ms_ci_low"));
    EXPECT_LT(metric_rank("step_ms_mean"), metric_rank("trace_activities"));
    EXPECT_EQ(metric_rank("not_a_metric"), metric_catalog().size());
}

// The runner writes one call count per backend operation; one entry covers them all.
TEST(MetricCatalog, PerOperationCallCountsShareOneEntry) {
    const MetricInfo* gemm = find_metric_info("op_gemm_per_step");
    ASSERT_NE(gemm, nullptr);
    EXPECT_EQ(gemm, find_metric_info("op_conv2d_forward_per_step"));
    EXPECT_EQ(gemm->direction, Direction::LowerIsBetter);
    EXPECT_EQ(metric_label("op_conv2d_forward_per_step"), "conv2d_forward calls per step");
    EXPECT_EQ(metric_rank("op_gemm_per_step"), metric_catalog().size());
    EXPECT_EQ(find_metric_info("op__per_step"), nullptr);
    EXPECT_EQ(find_metric_info("op_per_step"), nullptr);
}

TEST(MetricCatalog, Directions) {
    EXPECT_EQ(find_metric_info("images_per_s")->direction, Direction::HigherIsBetter);
    EXPECT_EQ(find_metric_info("step_ms_median")->direction, Direction::LowerIsBetter);
    EXPECT_EQ(find_metric_info("test_accuracy")->direction, Direction::HigherIsBetter);
    EXPECT_EQ(find_metric_info("step_count")->direction, Direction::Neither);
}

RunRecord run_with(std::vector<Metric> metrics, std::int64_t batch = 64) {
    RunRecord r;
    r.axes.batch = batch;
    r.metrics = std::move(metrics);
    return r;
}

TEST(MetricInterval, MedianGetsItsOwnIntervalNotTheMeans) {
    const RunRecord run = run_with({{"step_ms_median", 10.0, "ms"},
                                    {"step_ms_mean", 14.0, "ms"},
                                    {"step_ms_ci_low", 12.0, "ms"},
                                    {"step_ms_ci_high", 16.0, "ms"},
                                    {"step_ms_median_ci_low", 9.5, "ms"},
                                    {"step_ms_median_ci_high", 10.5, "ms"}});
    const auto median = metric_interval(run, "step_ms_median");
    ASSERT_TRUE(median);
    EXPECT_DOUBLE_EQ(median->low, 9.5);
    EXPECT_DOUBLE_EQ(median->high, 10.5);
    EXPECT_NE(median->what.find("median"), std::string_view::npos);
    const auto mean = metric_interval(run, "step_ms_mean");
    ASSERT_TRUE(mean);
    EXPECT_DOUBLE_EQ(mean->low, 12.0);
    EXPECT_NE(mean->what.find("mean"), std::string_view::npos);
    // images/s = batch / mean step time: its interval comes from the mean's.
    const auto images = metric_interval(run, "images_per_s");
    ASSERT_TRUE(images);
    EXPECT_DOUBLE_EQ(images->low, 64000.0 / 16.0);
    EXPECT_DOUBLE_EQ(images->high, 64000.0 / 12.0);
}

TEST(MetricInterval, AnOldRunWithoutTheMediansIntervalHasNone) {
    const RunRecord run = run_with({{"step_ms_median", 10.0, "ms"},
                                    {"step_ms_ci_low", 12.0, "ms"},
                                    {"step_ms_ci_high", 16.0, "ms"}});
    EXPECT_FALSE(metric_interval(run, "step_ms_median"));
}

RunRecord timed(double mean, double stdev, double count) {
    return run_with({{"step_ms_mean", mean, "ms"},
                     {"step_ms_stdev", stdev, "ms"},
                     {"step_count", count, ""},
                     {"images_per_s", 64000.0 / mean, "images/s"}});
}

TEST(RunComparison, SaysBetterOrWorseWithEachMetricsDirection) {
    const RunRecord a = timed(10.0, 0.1, 100);
    const RunRecord faster = timed(8.0, 0.1, 100);
    const auto c = compare_pair(a, faster);
    ASSERT_TRUE(c.step_time);
    EXPECT_EQ(c.step_time->verdict, Verdict::Faster);
    // Higher images/s and lower step time: both better, and tested.
    const auto images = judge_metric("images_per_s", 6400.0, 8000.0, c);
    EXPECT_EQ(images.judgement, Judgement::Better);
    EXPECT_TRUE(images.tested);
    EXPECT_EQ(judge_metric("step_ms_mean", 10.0, 8.0, c).judgement, Judgement::Better);
    const auto slower = compare_pair(faster, a);
    EXPECT_EQ(judge_metric("step_ms_mean", 8.0, 10.0, slower).judgement, Judgement::Worse);
    EXPECT_EQ(judge_metric("images_per_s", 8000.0, 6400.0, slower).judgement, Judgement::Worse);
    // Other metrics by direction alone, untested.
    const auto memory = judge_metric("peak_mem_bytes", 100.0, 200.0, c);
    EXPECT_EQ(memory.judgement, Judgement::Worse);
    EXPECT_FALSE(memory.tested);
    EXPECT_EQ(judge_metric("test_accuracy", 0.8, 0.9, c).judgement, Judgement::Better);
    EXPECT_EQ(judge_metric("step_count", 100.0, 200.0, c).judgement, Judgement::NotJudged);
}

TEST(RunComparison, ABiggerBatchWithLongerStepsCanHaveMoreThroughput) {
    const RunRecord a = timed(10.0, 0.1, 100);  // batch 64: 6,400 images/s
    RunRecord b = timed(15.0, 0.1, 100);        // batch 128: 8,533 images/s
    b.axes.batch = 128;
    b.metrics.back().value = 128000.0 / 15.0;
    const auto c = compare_pair(a, b);
    EXPECT_EQ(c.step_time->verdict, Verdict::Slower);
    ASSERT_TRUE(c.throughput);
    EXPECT_EQ(c.throughput->verdict, Verdict::Faster);
    EXPECT_NEAR(c.throughput->speedup, (128000.0 / 15.0) / 6400.0, 1e-12);
    EXPECT_EQ(judge_metric("step_ms_mean", 10.0, 15.0, c).judgement, Judgement::Worse);
    EXPECT_EQ(judge_metric("images_per_s", 6400.0, 128000.0 / 15.0, c).judgement,
              Judgement::Better);
}

TEST(RunComparison, UsesTheSameWithinBand) {
    const RunRecord a = timed(10.0, 0.01, 1000);
    const RunRecord b = timed(10.1, 0.01, 1000);  // 1 % slower, very precisely
    EXPECT_EQ(compare_runs(a, b)->verdict, Verdict::Same);
    EXPECT_EQ(compare_runs(a, b, 0.005)->verdict, Verdict::Slower);
    RunRecord failed = b;
    failed.status = RunStatus::Failed;
    EXPECT_FALSE(compare_runs(a, failed));
}

}  // namespace
}  // namespace trainscope::reports
