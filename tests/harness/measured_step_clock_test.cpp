#include <gtest/gtest.h>

#include <vector>

#include "harness/capture/MeasuredStepClock.hpp"

namespace trainscope::harness {
namespace {

// A clock the test moves by hand, and a next observer that records what reached it.
struct ManualClock {
    std::int64_t now = 0;
};

class Recorder : public workloads::TrainingObserver {
  public:
    bool on_step(const workloads::StepRecord& step) override {
        steps.push_back(step.index);
        return step.index < stop_after;
    }
    void on_eval(const workloads::EvalRecord&) override { ++evals; }
    std::vector<std::int64_t> steps;
    int evals = 0;
    std::int64_t stop_after = 1000;
};

workloads::StepRecord step(std::int64_t index, bool warmup) {
    workloads::StepRecord s;
    s.index = index;
    s.warmup = warmup;
    return s;
}

TEST(MeasuredStepClock, WindowStartsWhereTheFirstMeasuredStepStartsAndSkipsEvaluations) {
    ManualClock clock;
    Recorder next;
    MeasuredStepClock steps(&next, [&clock] { return clock.now; });
    clock.now = 500;                            // model build before step 0
    EXPECT_TRUE(steps.on_step(step(0, true)));  // warm-up ends at 500
    // on_step reads the clock at entry (the step's end) and after forwarding (the next
    // step's start); the manual clock does not move in between, so step 1 begins at 500.
    clock.now = 600;
    EXPECT_TRUE(steps.on_step(step(1, false)));
    clock.now = 700;
    EXPECT_TRUE(steps.on_step(step(2, false)));
    clock.now = 900;  // evaluation ran from 700 to 900
    steps.on_eval({});
    clock.now = 1000;
    EXPECT_TRUE(steps.on_step(step(3, false)));
    ASSERT_EQ(steps.intervals().size(), 2u);
    EXPECT_EQ(steps.intervals()[0].begin_ns, 500);
    EXPECT_EQ(steps.intervals()[0].end_ns, 700);
    EXPECT_EQ(steps.intervals()[1].begin_ns, 900);
    EXPECT_EQ(steps.intervals()[1].end_ns, 1000);
    EXPECT_EQ(steps.measured_steps(), 3);
    EXPECT_EQ(next.steps, (std::vector<std::int64_t>{0, 1, 2, 3}));
    EXPECT_EQ(next.evals, 1);
}

TEST(MeasuredStepClock, WithoutWarmUpStepZerosStartIsUnknownAndItIsNotCounted) {
    ManualClock clock;
    MeasuredStepClock steps(nullptr, [&clock] { return clock.now; });
    clock.now = 100;
    EXPECT_TRUE(steps.on_step(step(0, false)));
    clock.now = 200;
    EXPECT_TRUE(steps.on_step(step(1, false)));
    ASSERT_EQ(steps.intervals().size(), 1u);
    EXPECT_EQ(steps.intervals()[0].begin_ns, 100);
    EXPECT_EQ(steps.intervals()[0].end_ns, 200);
    EXPECT_EQ(steps.measured_steps(), 1);
}

TEST(MeasuredStepClock, ForwardsTheNextObserversStop) {
    ManualClock clock;
    Recorder next;
    next.stop_after = 1;
    MeasuredStepClock steps(&next, [&clock] { return clock.now; });
    EXPECT_TRUE(steps.on_step(step(0, true)));
    EXPECT_FALSE(steps.on_step(step(1, false)));
}

TEST(MeasuredStepClock, OnlyWarmUpMeansNoWindow) {
    ManualClock clock;
    MeasuredStepClock steps(nullptr, [&clock] { return clock.now; });
    steps.on_step(step(0, true));
    steps.on_step(step(1, true));
    EXPECT_TRUE(steps.intervals().empty());
    EXPECT_EQ(steps.measured_steps(), 0);
}

}  // namespace
}  // namespace trainscope::harness
