#include <gtest/gtest.h>

#include <cmath>

#include "reports/stats/RunningMoments.hpp"
#include "reports/stats/StepTimeComparison.hpp"

namespace trainscope::reports {
namespace {

TEST(StepTimeComparison, ClearlyFasterCell) {
    const auto c = compare_step_times({10.0, 0.1, 100}, {5.0, 0.05, 100});
    EXPECT_DOUBLE_EQ(c.speedup, 2.0);
    EXPECT_LT(c.speedup_ci_low, 2.0);
    EXPECT_GT(c.speedup_ci_high, 2.0);
    EXPECT_GT(c.speedup_ci_low, 1.9);
    EXPECT_EQ(c.verdict, Verdict::Faster);
}

TEST(StepTimeComparison, ClearlySlowerCell) {
    EXPECT_EQ(compare_step_times({10.0, 0.1, 100}, {12.0, 0.1, 100}).verdict, Verdict::Slower);
}

TEST(StepTimeComparison, TinyPreciseDifferenceIsTheSame) {
    // 0.5 % apart, measured precisely: significant, but below the 2 % that matters.
    EXPECT_EQ(compare_step_times({10.0, 0.01, 1000}, {10.05, 0.01, 1000}).verdict, Verdict::Same);
}

TEST(StepTimeComparison, NoisyMeasurementsAreUnclear) {
    // 5 % apart with 50 % noise over 10 steps: the interval holds 1 and is wide.
    EXPECT_EQ(compare_step_times({10.0, 5.0, 10}, {10.5, 5.0, 10}).verdict, Verdict::Unclear);
}

TEST(StepTimeComparison, IntervalMatchesTheDeltaMethod) {
    // cv 0.1 each, n = 25: relative se = sqrt(2 * 0.01 / 25) = 0.028284
    const auto c = compare_step_times({10.0, 1.0, 25}, {10.0, 1.0, 25});
    EXPECT_NEAR(c.speedup_ci_low, 1.0 - 1.959964 * 0.0282843, 1e-5);
    EXPECT_NEAR(c.speedup_ci_high, 1.0 + 1.959964 * 0.0282843, 1e-5);
    EXPECT_EQ(c.verdict, Verdict::Unclear);
}

TEST(StepTimeComparison, TooFewStepsSayNothing) {
    EXPECT_EQ(compare_step_times({10.0, 1.0, 1}, {5.0, 1.0, 100}).verdict, Verdict::Unclear);
}

TEST(RunningMoments, MatchesTwoPassFormulas) {
    RunningMoments m;
    for (double x : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0})
        m.add(x);
    EXPECT_DOUBLE_EQ(m.mean, 5.0);
    EXPECT_NEAR(m.variance(), 32.0 / 7.0, 1e-12);
    EXPECT_NEAR(m.relative_standard_error(), std::sqrt(32.0 / 7.0 / 8.0) / 5.0, 1e-12);
}

}  // namespace
}  // namespace trainscope::reports
