// placement=resident, device-clock step timing and the emulation flag on a real device
// (label gpu).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "GpuTestSupport.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/datasets/BatchLoader.hpp"
#include "workloads/datasets/SyntheticImageSource.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::workloads {
namespace {

std::vector<unsigned char> bytes_of(Backend& backend, const Tensor& t) {
    std::vector<unsigned char> bytes(t.bytes());
    backend.copy_to_host(t, bytes.data());
    return bytes;
}

// The gather kernel against the streaming loader: every batch of two shuffled epochs
// and an unshuffled pass with a partial last batch, bit for bit, f32 and f64, with rows
// of odd byte counts (1x5x5 f32: 100 bytes, 4-byte words) and 8-byte words (f64).
TEST(CudaResidentPlacement, GatheredBatchesEqualStreamedBatchesBitForBit) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const std::unique_ptr<Backend> backend = create_backend("cuda", BackendOptions{});
    TensorAllocator tensors(backend->raw_allocator());
    const SyntheticImageSource source(Shape{1, 5, 5}, 3, 23, 11, 0);
    for (const Precision precision : {Precision::fp32, Precision::fp64}) {
        StepContext context{*backend,
                            tensors,
                            policy_for(precision),
                            precision == Precision::fp64 ? DType::f64 : DType::f32,
                            true,
                            false};
        for (const bool shuffle : {true, false}) {
            BatchLoader streamed(source, 4, shuffle, 9, BatchPlacement::stream);
            BatchLoader resident(source, 4, shuffle, 9, BatchPlacement::resident);
            for (int epoch = 0; epoch < 2; ++epoch) {
                streamed.start_epoch();
                resident.start_epoch();
                for (std::int64_t b = 0; b < streamed.batches_per_epoch(); ++b) {
                    const Batch expected = streamed.load(context, b);
                    const Batch actual = resident.load(context, b);
                    EXPECT_EQ(bytes_of(*backend, actual.images),
                              bytes_of(*backend, expected.images))
                        << "batch " << b;
                    EXPECT_EQ(bytes_of(*backend, actual.labels),
                              bytes_of(*backend, expected.labels))
                        << "batch " << b;
                }
            }
        }
    }
}

TrainingConfig ten_steps() {
    TrainingConfig config;
    config.backend = "cuda";
    config.dataset = "synthetic";
    config.input_shape = "1x28x28";
    config.classes = 10;
    config.batch = 16;
    config.steps = 10;
    config.warmup_steps = 0;
    config.seed = 5;
    return config;
}

TEST(CudaResidentPlacement, TrainsToTheSameLossesAsStreamAndRecordsIt) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    TrainingConfig config = ten_steps();
    const TrainingResult streamed = run_training(config, nullptr);
    config.placement = Placement::resident;
    const TrainingResult resident = run_training(config, nullptr);
    ASSERT_EQ(resident.steps.size(), streamed.steps.size());
    for (std::size_t i = 0; i < streamed.steps.size(); ++i) {
        // Same batches; only cuDNN's possibly non-deterministic reductions may differ.
        EXPECT_NEAR(resident.steps[i].loss, streamed.steps[i].loss,
                    1e-5 * std::abs(streamed.steps[i].loss))
            << "step " << i;
    }
    EXPECT_EQ(resident.environment.at("placement"), "resident");
    EXPECT_EQ(streamed.environment.at("placement"), "stream");
}

TEST(CudaStepTimer, StepDurationsAreDeviceTimeWithinTheHostWallTime) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const auto wall_start = std::chrono::steady_clock::now();
    const TrainingResult result = run_training(ten_steps(), nullptr);
    const auto wall_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now() - wall_start)
                             .count();
    std::int64_t sum_ns = 0;
    for (const StepRecord& step : result.steps) {
        EXPECT_GT(step.duration_ns, 0) << "step " << step.index;
        sum_ns += step.duration_ns;
    }
    EXPECT_EQ(result.train_time_ns, sum_ns);
    EXPECT_LT(sum_ns, wall_ns);
}

// fp16/bf16 store real 16-bit tensors here: nothing is an emulation.
TEST(CudaEmulation, NoPrecisionIsEmulatedAndHalfStorageIsNative) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    for (const char* precision : {"fp32", "tf32", "fp16", "bf16", "fp64"}) {
        TrainingConfig config = ten_steps();
        config.steps = 1;
        config.evaluate = false;
        config.precision = parse_precision(precision);
        const TrainingResult result = run_training(config, nullptr);
        EXPECT_FALSE(result.emulated) << precision;
        EXPECT_EQ(result.environment.at("half_precision_storage").rfind("native", 0), 0u);
    }
}

}  // namespace
}  // namespace trainscope::workloads
