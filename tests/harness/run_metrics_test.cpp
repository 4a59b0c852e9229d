#include <gtest/gtest.h>

#include "harness/runner/RunMetrics.hpp"
#include "reports/metrics/MetricCatalog.hpp"

namespace trainscope::harness {
namespace {

const reports::Metric& find(const std::vector<reports::Metric>& metrics, const std::string& name) {
    for (const auto& m : metrics) {
        if (m.name == name)
            return m;
    }
    throw std::runtime_error("no metric " + name);
}

TEST(RunMetrics, WarmupStepsAreExcludedFromTimingButCountedAsTraining) {
    workloads::TrainingConfig config;
    config.batch = 100;
    config.target_accuracy = 0.8;
    workloads::TrainingResult result;
    result.steps.push_back({0, 0, 50'000'000, 2.0, 1.0, false, true});  // slow warm-up
    for (int i = 1; i <= 4; ++i) {
        result.steps.push_back({i, 0, 10'000'000, 2.0 - 0.1 * i, 1.0, i == 2, false});
    }
    result.evaluations.push_back({0, 2, 30'000'000, 0.75, 0.9});
    result.evaluations.push_back({0, 5, 90'000'000, 0.85, 0.5});
    result.peak_tensor_bytes = 4096;
    const auto m = compute_run_metrics(config, result);
    EXPECT_DOUBLE_EQ(find(m, "images_per_s").value, 400.0 / 0.04);
    EXPECT_DOUBLE_EQ(find(m, "step_ms_median").value, 10.0);
    // The median's own interval (order statistics), stored beside the mean's.
    EXPECT_DOUBLE_EQ(find(m, "step_ms_median_ci_low").value, 10.0);
    EXPECT_DOUBLE_EQ(find(m, "step_ms_median_ci_high").value, 10.0);
    EXPECT_DOUBLE_EQ(find(m, "step_count").value, 4.0);
    EXPECT_DOUBLE_EQ(find(m, "skipped_steps").value, 1.0);
    EXPECT_DOUBLE_EQ(find(m, "final_loss").value, 1.6);
    EXPECT_DOUBLE_EQ(find(m, "test_accuracy").value, 0.85);
    EXPECT_DOUBLE_EQ(find(m, "time_to_target_s").value, 0.09);
    EXPECT_DOUBLE_EQ(find(m, "peak_mem_bytes").value, 4096.0);
    // The unit is the catalog's, which the store writes; the writer gives none.
    EXPECT_EQ(reports::metric_unit("images_per_s"), "images/s");
    EXPECT_EQ(find(m, "images_per_s").unit, "");
}

}  // namespace
}  // namespace trainscope::harness
