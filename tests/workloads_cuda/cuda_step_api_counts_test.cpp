// On a GPU: the step's CUDA runtime API calls, counted from CUPTI's records of a real
// training run (profiler/analysis/StepApiCounts, as `trainscope analyze` prints them):
// after warm-up no cudaMalloc/cudaFree in a step and no allocation, free, wait or copy in
// its timed window, the next batch's copies inside its data load, and the same number of
// kernels launched every step. Its own executable: the
// tracers are process-wide and NVTX injection attaches at the process's first NVTX call.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "GpuTestSupport.hpp"
#include "harness/capture/TraceCapture.hpp"
#include "profiler/analysis/StepApiCounts.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope {
namespace {

TEST(CudaStepApiCounts, NoAllocationOrWaitInTheTimedWindowAndTheNextBatchCopiedInItsDataLoad) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    for (const char* precision : {"fp32", "fp16"}) {
        SCOPED_TRACE(precision);
        workloads::TrainingConfig config;
        config.backend = "cuda";
        config.model = "resnet";
        config.model_params = {{"depth", "8"}, {"width", "16"}};
        config.dataset = "synthetic";
        config.input_shape = "1x28x28";
        config.batch = 64;
        config.steps = 10;
        config.warmup_steps = 3;
        config.precision = workloads::parse_precision(precision);
        config.evaluate = false;
        harness::TraceCapture capture(profiler::TraceLevel::Full, true);
        (void)workloads::run_training(config, nullptr);
        std::vector<std::string> warnings;
        const auto trace = capture.stop(warnings);
        ASSERT_TRUE(trace.has_value());
        ASSERT_TRUE(profiler::has_runtime_api_records(*trace));
        const auto steps = profiler::count_api_calls_per_step(*trace);
        ASSERT_EQ(steps.size(), 10u);
        const std::int64_t launches = steps[3].step.kernel_launches;
        EXPECT_GT(launches, 0);
        for (std::size_t i = 3; i < steps.size(); ++i) {
            SCOPED_TRACE("step " + std::to_string(i));
            EXPECT_EQ(steps[i].step.allocations, 0);
            EXPECT_EQ(steps[i].step.frees, 0);
            // The timed window itself: no allocation, free, wait or copy, only launches.
            ASSERT_TRUE(steps[i].has_window);
            EXPECT_EQ(steps[i].window.allocations, 0);
            EXPECT_EQ(steps[i].window.frees, 0);
            EXPECT_EQ(steps[i].window.synchronizations, 0);
            EXPECT_EQ(steps[i].window.memcpys, 0);
            EXPECT_EQ(steps[i].window.kernel_launches, launches);
            EXPECT_EQ(steps[i].data.allocations, 0);
            EXPECT_EQ(steps[i].step.kernel_launches, launches);
            // Images and labels of the next batch; the last step stages none.
            if (i + 1 < steps.size()) {
                EXPECT_GE(steps[i].data.memcpys, 2);
            }
        }
    }
}

}  // namespace
}  // namespace trainscope
