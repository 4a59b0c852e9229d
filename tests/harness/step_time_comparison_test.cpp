#include <gtest/gtest.h>

#include "harness/compare/StepTimeComparison.hpp"
#include "harness/runner/StoppingRule.hpp"

#include <cmath>

namespace trainscope::harness {
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

TEST(StoppingRule, StopsWhenNoiseTargetMetAfterMinSteps) {
    StoppingRule rule;
    rule.fixed_length = false;
    rule.rse_target = 0.01;
    rule.min_steps = 4;
    rule.max_time_s = 100;
    RunningMoments m;
    for (double x : {10.0, 10.1, 9.9}) m.add(x);
    EXPECT_EQ(decide_stop(rule, m, 1.0), StopDecision::Continue) << "below min steps";
    m.add(10.0);
    EXPECT_EQ(decide_stop(rule, m, 1.0), StopDecision::NoiseTargetMet);
    RunningMoments noisy;
    for (double x : {1.0, 20.0, 3.0, 15.0, 2.0}) noisy.add(x);
    EXPECT_EQ(decide_stop(rule, noisy, 1.0), StopDecision::Continue);
    EXPECT_EQ(decide_stop(rule, noisy, 100.0), StopDecision::TimeCapReached);
    rule.fixed_length = true;
    EXPECT_EQ(decide_stop(rule, m, 1000.0), StopDecision::Continue) << "fixed length ignores the rule";
}

TEST(RunningMoments, MatchesTwoPassFormulas) {
    RunningMoments m;
    for (double x : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) m.add(x);
    EXPECT_DOUBLE_EQ(m.mean, 5.0);
    EXPECT_NEAR(m.variance(), 32.0 / 7.0, 1e-12);
    EXPECT_NEAR(m.relative_standard_error(), std::sqrt(32.0 / 7.0 / 8.0) / 5.0, 1e-12);
}

}  // namespace
}  // namespace trainscope::harness
