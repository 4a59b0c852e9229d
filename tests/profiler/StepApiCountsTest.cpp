// Counting a CUDA training step's runtime API calls from a trace (trainscope analyze's
// "Step anatomy"), on traces built by hand with known answers.
#include <gtest/gtest.h>

#include "HandBuiltTrace.hpp"
#include "profiler/analysis/StepApiCounts.hpp"

namespace trainscope::profiler {
namespace {

using testing::HandBuiltTrace;

TEST(StepApiCounts, ClassifiesRuntimeCallsByNameWithOrWithoutVersionSuffix) {
    EXPECT_EQ(classify_runtime_call("cudaMalloc_v3020"), RuntimeCallClass::allocation);
    EXPECT_EQ(classify_runtime_call("cudaMallocAsync_v11020"), RuntimeCallClass::allocation);
    EXPECT_EQ(classify_runtime_call("cudaHostAlloc"), RuntimeCallClass::allocation);
    EXPECT_EQ(classify_runtime_call("cudaFree"), RuntimeCallClass::free);
    EXPECT_EQ(classify_runtime_call("cudaFreeAsync_v11020"), RuntimeCallClass::free);
    EXPECT_EQ(classify_runtime_call("cudaStreamSynchronize_v3020"),
              RuntimeCallClass::synchronization);
    EXPECT_EQ(classify_runtime_call("cudaEventSynchronize"), RuntimeCallClass::synchronization);
    EXPECT_EQ(classify_runtime_call("cudaDeviceSynchronize"), RuntimeCallClass::synchronization);
    EXPECT_EQ(classify_runtime_call("cudaMemcpyAsync_v3020"), RuntimeCallClass::memcpy);
    EXPECT_EQ(classify_runtime_call("cudaLaunchKernel_v7000"), RuntimeCallClass::other);
    EXPECT_EQ(classify_runtime_call("cudaEventRecord"), RuntimeCallClass::other);
}

// Two steps on thread 1. Step 1 (0-1000): a data load (100-300) with an H2D copy and its
// pinned staging allocation, then a kernel launch, a cuBLAS kernel launched through the
// driver API, a free and the closing sync. Step 2 (1000-2000): two launches and a sync,
// one launch recorded twice under one correlation id (as nsys does). A call on another
// thread inside step 1 is not the step's.
HandBuiltTrace two_steps() {
    HandBuiltTrace t;
    t.nvtx_range(1, "step", 0, 1000);
    t.nvtx_range(1, "data load", 100, 300);
    t.runtime_call(1, "cudaHostAlloc", 110, 120, 1);
    t.runtime_call(1, "cudaMemcpyAsync_v3020", 130, 140, 2);
    t.memcpy(0, 7, 150, 160, 4096, 2);
    t.runtime_call(1, "cudaLaunchKernel_v7000", 400, 410, 3);
    t.kernel(0, 7, "relu", 420, 430, 3);
    Activity& driver = t.runtime_call(1, "cuLaunchKernel", 450, 460, 4);
    driver.kind = ActivityKind::DriverApi;
    t.kernel(0, 7, "sgemm", 470, 490, 4);
    t.runtime_call(1, "cudaFree_v3020", 500, 510, 5);
    t.runtime_call(1, "cudaStreamSynchronize_v3020", 900, 990, 6);
    t.runtime_call(2, "cudaMalloc_v3020", 600, 610, 7);  // another thread

    t.nvtx_range(1, "step", 1000, 2000);
    t.runtime_call(1, "cudaLaunchKernel", 1100, 1110, 8);
    t.runtime_call(1, "cudaLaunchKernel_v7000", 1100, 1110, 8);
    t.kernel(0, 7, "conv", 1120, 1300, 8);
    t.runtime_call(1, "cudaLaunchKernel_v7000", 1400, 1410, 9);
    t.kernel(0, 7, "adam", 1420, 1500, 9);
    t.runtime_call(1, "cudaEventSynchronize_v3020", 1900, 1990, 10);
    return t;
}

TEST(StepApiCounts, CountsEachStepsCallsApartFromItsDataLoad) {
    HandBuiltTrace t = two_steps();
    const auto steps = count_api_calls_per_step(t.trace());
    ASSERT_EQ(steps.size(), 2u);

    EXPECT_EQ(steps[0].begin_ns, 0);
    EXPECT_EQ(steps[0].end_ns, 1000);
    EXPECT_EQ(steps[0].data.allocations, 1);
    EXPECT_EQ(steps[0].data.memcpys, 1);
    EXPECT_EQ(steps[0].data.runtime_calls, 2);
    EXPECT_EQ(steps[0].data.kernel_launches, 0);
    EXPECT_EQ(steps[0].step.allocations, 0);  // thread 2's cudaMalloc is not counted
    EXPECT_EQ(steps[0].step.frees, 1);
    EXPECT_EQ(steps[0].step.synchronizations, 1);
    EXPECT_EQ(steps[0].step.memcpys, 0);
    EXPECT_EQ(steps[0].step.runtime_calls, 3);    // launch, free, sync; cuLaunchKernel is driver
    EXPECT_EQ(steps[0].step.kernel_launches, 2);  // relu and the driver-launched sgemm

    EXPECT_EQ(steps[1].step.kernel_launches, 2);
    EXPECT_EQ(steps[1].step.runtime_calls, 3);  // the duplicated record counts once
    EXPECT_EQ(steps[1].step.synchronizations, 1);
    EXPECT_EQ(steps[1].step.allocations + steps[1].step.frees, 0);
    EXPECT_EQ(steps[1].data.runtime_calls, 0);
}

TEST(StepApiCounts, SpreadLeavesWarmUpStepsOut) {
    HandBuiltTrace t = two_steps();
    const auto steps = count_api_calls_per_step(t.trace());
    const ApiCallSpread all = spread_of(steps, 0, StepPart::own);
    EXPECT_EQ(all.steps, 2u);
    EXPECT_EQ(all.frees.min, 0);
    EXPECT_EQ(all.frees.max, 1);
    EXPECT_DOUBLE_EQ(all.frees.median, 0.5);
    const ApiCallSpread measured = spread_of(steps, 1, StepPart::own);
    EXPECT_EQ(measured.steps, 1u);
    EXPECT_EQ(measured.frees.max, 0);
    EXPECT_DOUBLE_EQ(measured.kernel_launches.median, 2.0);
    const ApiCallSpread data = spread_of(steps, 0, StepPart::data);
    EXPECT_EQ(data.allocations.max, 1);
    EXPECT_EQ(spread_of(steps, 2, StepPart::own).steps, 0u);
}

TEST(StepApiCounts, TracesWithoutApiRecordsOrStepsSayso) {
    HandBuiltTrace kernels_only;
    kernels_only.nvtx_range(1, "step", 0, 100);
    kernels_only.kernel(0, 7, "relu", 10, 20, 0);
    EXPECT_FALSE(has_runtime_api_records(kernels_only.trace()));
    const auto steps = count_api_calls_per_step(kernels_only.trace());
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].step.runtime_calls, 0);
    EXPECT_TRUE(has_runtime_api_records(two_steps().trace()));
    HandBuiltTrace no_steps;
    no_steps.runtime_call(1, "cudaMalloc", 0, 10, 1);
    EXPECT_TRUE(count_api_calls_per_step(no_steps.trace()).empty());
}

// A window belongs to the step it starts in: a later step's window is not this one's.
TEST(StepApiCounts, OnlyTheStepAWindowStartsInHasIt) {
    HandBuiltTrace t = two_steps();
    t.nvtx_range(1, "timed window", 1050, 1800);
    const auto steps = count_api_calls_per_step(t.trace());
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_FALSE(steps[0].has_window);
    EXPECT_TRUE(steps[1].has_window);
}

// The engine marks each step's timed window: its calls are counted apart, so a sync that
// waits after the window (or a copy staged before it) is not taken for the step's own.
TEST(StepApiCounts, TheTimedWindowIsCountedApartFromTheWaitAfterIt) {
    HandBuiltTrace t = two_steps();
    EXPECT_FALSE(count_api_calls_per_step(t.trace())[0].has_window) << "no window marked";
    t.nvtx_range(1, "timed window", 350, 600);  // step 1: launches and the free, not the sync
    t.nvtx_range(1, "timed window", 1050, 1800);
    const auto steps = count_api_calls_per_step(t.trace());
    ASSERT_EQ(steps.size(), 2u);
    for (const auto& s : steps)
        EXPECT_TRUE(s.has_window);
    EXPECT_EQ(steps[0].window.kernel_launches, 2);
    EXPECT_EQ(steps[0].window.frees, 1);
    EXPECT_EQ(steps[0].window.synchronizations, 0);
    EXPECT_EQ(steps[0].window.memcpys, 0) << "the data load's copy is outside the window";
    EXPECT_EQ(steps[0].step.synchronizations, 1) << "the step still holds the wait";
    EXPECT_EQ(steps[1].window.kernel_launches, 2);
    EXPECT_EQ(steps[1].window.synchronizations, 0);
    const ApiCallSpread window = spread_of(steps, 0, StepPart::window);
    EXPECT_EQ(window.synchronizations.max, 0);
    EXPECT_EQ(window.kernel_launches.min, 2);
}

}  // namespace
}  // namespace trainscope::profiler
