// On a GPU: what the CPU tests prove of the timed window (workloads_step_counts_test)
// holds on the CUDA backend, and the window closes on the device's event, not on the
// host's clock.
#include <gtest/gtest.h>

#include <chrono>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>

#include "GpuTestSupport.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::workloads {
namespace {

TrainingConfig cuda_run(const std::string& model, const std::string& precision) {
    TrainingConfig config;
    config.backend = "cuda";
    config.model = model;
    if (model == "resnet") {
        config.model_params = {{"depth", "8"}, {"width", "16"}};
    }
    config.dataset = "synthetic";
    config.input_shape = "1x28x28";
    config.classes = 10;
    config.batch = 64;
    config.steps = 12;
    config.warmup_steps = 4;
    config.precision = parse_precision(precision);
    config.evaluate = false;
    return config;
}

TEST(CudaStepWindow, AfterWarmUpNoAllocationNoWaitAndNoCopyInsideTheTimedWindow) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    for (const char* model : {"seed-cnn", "resnet"}) {
        for (const char* precision : {"fp32", "fp16"}) {
            SCOPED_TRACE(std::string(model) + " " + precision);
            const TrainingResult result = run_training(cuda_run(model, precision), nullptr);
            for (const StepRecord& step : result.steps) {
                EXPECT_EQ(step.counts.h2d_copies, 0) << step.index;
                EXPECT_EQ(step.counts.synchronizations, 0) << step.index;
                if (!step.warmup) {
                    EXPECT_EQ(step.counts.allocations, 0) << step.index;
                    EXPECT_EQ(step.counts.frees, 0) << step.index;
                }
            }
        }
    }
}

double calls(const TrainingResult& result, std::initializer_list<const char*> ops) {
    double sum = 0.0;
    for (const char* op : ops) {
        const auto it = result.extra_metrics.find(std::string("op_") + op + "_per_step");
        sum += it == result.extra_metrics.end() ? 0.0 : it->second;
    }
    return sum;
}

// Flat parameter buffers: seed-cnn (4 parameter tensors) and ResNet-8 (29) make the same
// number of optimizer, finite-check and cast calls per step (one per flat buffer).
TEST(CudaStepWindow, ParameterWorkCallsDoNotGrowWithTheParameterCount) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const TrainingResult small = run_training(cuda_run("seed-cnn", "fp16"), nullptr);
    const TrainingResult large = run_training(cuda_run("resnet", "fp16"), nullptr);
    for (const auto& ops : {std::initializer_list<const char*>{"adam_update"},
                            std::initializer_list<const char*>{"flag_non_finite"},
                            std::initializer_list<const char*>{"convert"}}) {
        EXPECT_EQ(calls(large, ops), calls(small, ops)) << *ops.begin();
    }
}

TEST(CudaStepWindow, ClosesOnTheDevicesEventNotWhenTheHostAsks) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const std::unique_ptr<Backend> backend = create_backend("cuda", BackendOptions{});
    TensorAllocator tensors(backend->raw_allocator());
    Tensor big = tensors.allocate(Shape{64 << 20}, DType::f32);  // 256 MiB
    backend->synchronize();
    const auto host_start = std::chrono::steady_clock::now();
    StepTimer& timer = backend->start_step_timer();
    for (int i = 0; i < 8; ++i) {
        backend->fill(big, static_cast<double>(i));
    }
    timer.close();
    // The host dawdles after the window closed: that must not be timed.
    constexpr auto kHostDelay = std::chrono::milliseconds(200);
    std::this_thread::sleep_for(kHostDelay);
    const std::int64_t elapsed_ns = timer.elapsed_ns();
    const auto host_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now() - host_start)
                             .count();
    EXPECT_GT(elapsed_ns, 0);
    EXPECT_LT(elapsed_ns, std::chrono::duration_cast<std::chrono::nanoseconds>(kHostDelay).count());
    EXPECT_LT(elapsed_ns, host_ns);
    backend->synchronize();
}

}  // namespace
}  // namespace trainscope::workloads
