#include <gtest/gtest.h>

#include "harness/runner/StoppingRule.hpp"

namespace trainscope::harness {
namespace {

using reports::RunningMoments;

TEST(StoppingRule, StopsWhenNoiseTargetMetAfterMinSteps) {
    StoppingRule rule;
    rule.fixed_length = false;
    rule.rse_target = 0.01;
    rule.min_steps = 4;
    rule.max_time_s = 100;
    RunningMoments m;
    for (double x : {10.0, 10.1, 9.9})
        m.add(x);
    EXPECT_EQ(decide_stop(rule, m, 1.0), StopDecision::Continue) << "below min steps";
    m.add(10.0);
    EXPECT_EQ(decide_stop(rule, m, 1.0), StopDecision::NoiseTargetMet);
    RunningMoments noisy;
    for (double x : {1.0, 20.0, 3.0, 15.0, 2.0})
        noisy.add(x);
    EXPECT_EQ(decide_stop(rule, noisy, 1.0), StopDecision::Continue);
    EXPECT_EQ(decide_stop(rule, noisy, 100.0), StopDecision::TimeCapReached);
    rule.fixed_length = true;
    EXPECT_EQ(decide_stop(rule, m, 1000.0), StopDecision::Continue)
        << "fixed length ignores the rule";
}

}  // namespace
}  // namespace trainscope::harness
