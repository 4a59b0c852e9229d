// Training steps: trainscope's NVTX "step" ranges and Kineto's ProfilerStep#N, counted
// once (host ranges only), for per-step comparisons.
#include <gtest/gtest.h>

#include "profiler/analysis/TrainingSteps.hpp"
#include "tests/profiler/HandBuiltTrace.hpp"
#include "tests/profiler/TraceFixtures.hpp"

namespace trainscope::profiler {
namespace {

TEST(TrainingSteps, RecognisesTrainscopeAndPytorchStepNames) {
    EXPECT_TRUE(is_training_step_name("step"));
    EXPECT_TRUE(is_training_step_name("step 12"));
    EXPECT_TRUE(is_training_step_name("ProfilerStep#5"));
    EXPECT_FALSE(is_training_step_name("forward"));
    EXPECT_FALSE(is_training_step_name("optimizer_step"));
    EXPECT_FALSE(is_training_step_name("stepper"));
}

TEST(TrainingSteps, CountsHostRangesOnly) {
    testing::HandBuiltTrace t;
    t.nvtx_range(1, "epoch", 0, 100);
    for (int i = 0; i < 3; ++i) {
        t.nvtx_range(1, "step", i * 30, i * 30 + 25);
        t.nvtx_range(1, "forward", i * 30, i * 30 + 10);
    }
    EXPECT_EQ(count_training_steps(t.trace()), 3);
    // Kineto's GPU-side copy of a step annotation is not a second step.
    Activity& mirrored = t.kernel(0, 7, "ProfilerStep#9", 0, 10);
    mirrored.kind = ActivityKind::NvtxRange;
    t.nvtx_range(1, "ProfilerStep#9", 100, 130);
    EXPECT_EQ(count_training_steps(t.trace()), 4);
}

TEST(TrainingSteps, KinetoTraceHasItsProfilerSteps) {
    // The PyTorch profiler recorded steps #5 .. #10 of a ResNet-50 training run.
    EXPECT_EQ(count_training_steps(testing::kineto_fixture("v100_resnet50_training")), 6);
}

}  // namespace
}  // namespace trainscope::profiler
