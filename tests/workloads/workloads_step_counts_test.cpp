// What a step's timed window holds, proven on the CPU through the counting layer that
// wraps every run's backend (CountingBackend): after warm-up no backend allocation and
// no wait inside the window, and the data staging outside it. The training loop and the
// backend interface are the CUDA backend's too, so these hold there by construction.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/backend/CountingBackend.hpp"
#include "workloads/backends/cpu/CpuBackend.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/training/TrainingSession.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

class WorkloadsStepWindow : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(WorkloadsStepWindow, AfterWarmUpNoAllocationNoWaitAndNoCopyInsideTheTimedWindow) {
    const auto& [model, precision] = GetParam();
    const TrainingResult result =
        run_training(testing::small_synthetic_run(model, precision), nullptr);
    ASSERT_EQ(result.steps.size(), 8u);
    for (const StepRecord& step : result.steps) {
        // The batch was staged before the window opened, from the first step on.
        EXPECT_EQ(step.counts.h2d_copies, 0) << "step " << step.index;
        EXPECT_EQ(step.counts.synchronizations, 0) << "step " << step.index;
        EXPECT_GT(step.counts.backend_calls, 0) << "step " << step.index;
        EXPECT_GT(step.counts.tensor_allocations, 0) << "step " << step.index;
        if (!step.warmup) {
            EXPECT_EQ(step.counts.allocations, 0) << "step " << step.index;
            EXPECT_EQ(step.counts.frees, 0) << "step " << step.index;
        }
    }
    EXPECT_EQ(result.extra_metrics.at("allocations_per_step"), 0.0);
    EXPECT_EQ(result.extra_metrics.at("frees_per_step"), 0.0);
    EXPECT_EQ(result.extra_metrics.at("syncs_per_step"), 0.0);
    EXPECT_EQ(result.extra_metrics.at("h2d_copies_per_step"), 0.0);
    EXPECT_GT(result.extra_metrics.at("backend_calls_per_step"), 0.0);
}

INSTANTIATE_TEST_SUITE_P(ModelsAndPrecisions, WorkloadsStepWindow,
                         ::testing::Values(std::pair<std::string, std::string>{"seed-cnn", "fp32"},
                                           std::pair<std::string, std::string>{"seed-cnn", "fp16"},
                                           std::pair<std::string, std::string>{"resnet", "fp32"},
                                           std::pair<std::string, std::string>{"resnet", "fp16"}));

TEST(WorkloadsStepCounts, RawAllocationsAreCountedWhereNoPoolServesThem) {
    TrainingConfig config = testing::small_synthetic_run("seed-cnn", "fp32");
    config.allocator = Allocator::device;
    const TrainingResult result = run_training(config, nullptr);
    for (const StepRecord& step : result.steps) {
        // Without a pool every tensor made in the window is a backend allocation.
        EXPECT_EQ(step.counts.allocations, step.counts.tensor_allocations) << step.index;
        EXPECT_GT(step.counts.allocations, 0) << step.index;
    }
    EXPECT_GT(result.extra_metrics.at("allocations_per_step"), 0.0);
}

TEST(WorkloadsStepCounts, OperationCountsPerStepNameTheStepsOperations) {
    const TrainingResult result =
        run_training(testing::small_synthetic_run("seed-cnn", "fp32"), nullptr);
    // seed-cnn: 4 parameters (conv weight and bias, dense weight and bias), views into one
    // flat buffer per role, updated by one Adam call over the buffers; one convolution
    // forward; no host-to-device copy in the window.
    EXPECT_EQ(result.extra_metrics.at("op_adam_update_per_step"), 1.0);
    EXPECT_EQ(result.extra_metrics.at("op_conv2d_forward_per_step"), 1.0);
    EXPECT_EQ(result.extra_metrics.count("op_copy_from_host_per_step"), 0u);
    double sum = 0.0;
    for (const auto& [name, value] : result.extra_metrics) {
        if (name.rfind("op_", 0) == 0) {
            sum += value;
        }
    }
    EXPECT_EQ(sum, result.extra_metrics.at("backend_calls_per_step"));
}

TEST(WorkloadsStepCounts, CountingBackendCountsWaitsCopiesAndRawAllocations) {
    CountingBackend backend(std::make_unique<CpuBackend>(1));
    void* block = backend.raw_allocator().allocate(64, TensorClass::other);
    backend.raw_allocator().deallocate(block, 64, TensorClass::other);
    backend.synchronize();
    const StepCounts counts = backend.counts();
    EXPECT_EQ(counts.allocations, 1);
    EXPECT_EQ(counts.frees, 1);
    EXPECT_EQ(counts.synchronizations, 1);
    EXPECT_EQ(counts.backend_calls, 1);
    EXPECT_EQ(backend.calls(BackendOp::synchronize), 1);
    EXPECT_EQ(backend.name(), "cpu");
}

// The step-capture operations have defaults in Backend: a CountingBackend that failed to
// forward one would reach the default, not the backend it wraps, and count nothing of it.
TEST(WorkloadsStepCounts, CountsEveryOperationOnce) {
    CountingBackend backend(std::make_unique<CpuBackend>(1));
    TensorAllocator tensors(backend.raw_allocator());
    Tensor a = tensors.allocate(Shape{4}, DType::f32);
    Tensor g = tensors.allocate(Shape{4}, DType::f32);
    Tensor m = tensors.allocate(Shape{4}, DType::f32);
    Tensor v = tensors.allocate(Shape{4}, DType::f32);
    Tensor overflow = tensors.allocate(Shape{1}, DType::f32);
    for (Tensor* t : {&a, &g, &m, &v, &overflow}) {
        backend.fill(*t, 0.0);
    }
    backend.adam_update(a, g, m, v, AdamSettings{}, 1.0, Tensor());
    backend.sgd_update(a, g, m, SgdSettings{}, 1.0, Tensor());
    backend.flag_non_finite(g, overflow);
    backend.convert(g, a);
    EXPECT_THROW(backend.begin_step_capture(), std::logic_error);
    EXPECT_THROW(backend.replay_step(), std::logic_error);
    for (const BackendOp op :
         {BackendOp::adam_update, BackendOp::sgd_update, BackendOp::flag_non_finite,
          BackendOp::convert, BackendOp::begin_step_capture, BackendOp::replay_step}) {
        EXPECT_EQ(backend.calls(op), 1) << to_string(op);
    }
    EXPECT_EQ(backend.calls(BackendOp::fill), 5);
}

// A CPU backend whose host-to-device copies take kCopyDelay each: a slow data source.
// A step that held its batch's two copies would take at least twice the delay; one that
// does not takes its compute alone, a few ms quiet but 50 ms seen on a loaded 2-core
// machine (more under the sanitizers), so the delay leaves the compute a wide margin.
constexpr auto kCopyDelay = std::chrono::milliseconds(250);

class SlowCopyBackend final : public CpuBackend {
  public:
    explicit SlowCopyBackend(int threads) : CpuBackend(threads) {}
    void do_copy_from_host(const void* host, Tensor& destination) override {
        std::this_thread::sleep_for(kCopyDelay);
        CpuBackend::do_copy_from_host(host, destination);
    }
};

TEST(WorkloadsStepCounts, ASlowDataSourceLeavesTheMeasuredStepTimeAlone) {
    register_backend("slow-copy-cpu", [](const BackendOptions& options) {
        return std::make_unique<SlowCopyBackend>(options.threads);
    });
    TrainingConfig config = testing::small_synthetic_run("seed-cnn", "fp32");
    config.backend = "slow-copy-cpu";
    config.steps = 5;
    const TrainingResult result = run_training(config, nullptr);
    ASSERT_EQ(result.steps.size(), 5u);
    const auto delay_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(kCopyDelay).count();
    for (const StepRecord& step : result.steps) {
        // Two copies per batch (images, labels) staged outside the window, not in it.
        EXPECT_GE(step.data_ns, 2 * delay_ns) << step.index;
        EXPECT_LT(step.duration_ns, delay_ns) << step.index;
    }
}

TEST(WorkloadsStepTimer, AClosedWindowIgnoresWhatTheHostDoesAfterwards) {
    // Bounded by clock reads around the window rather than by a sleep's length, which a
    // loaded machine stretches without limit.
    const auto before = std::chrono::steady_clock::now();
    SteadyClockStepTimer timer;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    timer.close();
    const auto closed = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const std::int64_t elapsed_ns = timer.elapsed_ns();
    EXPECT_GE(elapsed_ns, 5'000'000);
    EXPECT_LE(elapsed_ns,
              std::chrono::duration_cast<std::chrono::nanoseconds>(closed - before).count());
    EXPECT_EQ(timer.elapsed_ns(), elapsed_ns);  // read again, the same window
}

}  // namespace
}  // namespace trainscope::workloads
