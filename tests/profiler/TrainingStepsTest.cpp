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

TEST(TrainingSteps, SpanRunsFromTheFirstStepToTheLastIncludingGpuCopies) {
    testing::HandBuiltTrace t;
    EXPECT_EQ(training_steps_span(t.trace()).begin_ns, TimeWindow{}.begin_ns) << "no steps: all";
    t.nvtx_range(1, "setup", 0, 50);
    t.nvtx_range(1, "step", 50, 80);
    t.nvtx_range(1, "step", 80, 110);
    t.nvtx_range(1, "evaluation", 110, 200);
    TimeWindow span = training_steps_span(t.trace());
    EXPECT_EQ(span.begin_ns, 50);
    EXPECT_EQ(span.end_ns, 110);
    EXPECT_FALSE(span.contains(150)) << "the evaluation after training is not step work";
    // A kernel launched in the last step runs after the step's range has ended: it is
    // still the step's work. One launched by the evaluation is not.
    t.runtime_call(1, "cudaLaunchKernel", 100, 105, 7);
    t.kernel(0, 7, "late_step_kernel", 112, 118, 7);
    t.runtime_call(1, "cudaLaunchKernel", 120, 125, 8);
    t.kernel(0, 7, "evaluation_kernel", 126, 140, 8);
    span = training_steps_span(t.trace());
    EXPECT_TRUE(span.contains(112));
    EXPECT_FALSE(span.contains(126));
    // The GPU copy of the last step ends later: the kernels it launched ran until then.
    Activity& mirrored = t.kernel(0, 7, "ProfilerStep#2", 85, 150);
    mirrored.kind = ActivityKind::NvtxRange;
    span = training_steps_span(t.trace());
    EXPECT_EQ(span.end_ns, 150);
}

TEST(TrainingSteps, KinetoSpanHoldsEveryKernelOfItsSteps) {
    const Trace trace = testing::kineto_fixture("v100_resnet50_training");
    const TimeWindow span = training_steps_span(trace);
    ASSERT_LT(span.begin_ns, span.end_ns);
    std::int64_t kernels = 0;
    std::int64_t inside = 0;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::Kernel)
            continue;
        ++kernels;
        inside += span.contains(a.start_ns) ? 1 : 0;
    }
    EXPECT_GT(kernels, 8000);
    EXPECT_EQ(inside, kernels) << "every kernel of the profiled steps #5..#10 lies in the span";
}

}  // namespace
}  // namespace trainscope::profiler
