// Ten whole training steps on the CUDA backend against the CPU backend, every memory
// strategy against `device`, and recomputation's memory saving (label gpu).
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>

#include "GpuTestSupport.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::workloads {
namespace {

TrainingConfig ten_steps(const std::string& model, const std::string& precision) {
    TrainingConfig config;
    config.model = model;
    config.precision = parse_precision(precision);
    config.dataset = "synthetic";
    config.input_shape = model == "resnet" ? "3x32x32" : "1x28x28";
    config.classes = 10;
    config.batch = 16;
    config.steps = 10;
    config.warmup_steps = 0;
    config.seed = 5;
    if (model == "resnet") {
        config.model_params = {{"depth", "8"}, {"width", "8"}};
    }
    return config;
}

TrainingResult train_on(TrainingConfig config, const std::string& backend) {
    config.backend = backend;
    return run_training(config, nullptr);
}

void expect_same_losses(const TrainingResult& actual, const TrainingResult& expected,
                        double relative_tolerance, const std::string& what) {
    ASSERT_EQ(actual.steps.size(), expected.steps.size()) << what;
    for (std::size_t i = 0; i < expected.steps.size(); ++i) {
        const double reference = expected.steps[i].loss;
        EXPECT_NEAR(actual.steps[i].loss, reference, relative_tolerance * std::abs(reference))
            << what << " step " << i;
        EXPECT_EQ(actual.steps[i].skipped, expected.steps[i].skipped) << what << " step " << i;
    }
}

// Relative loss tolerances after ten steps: fp64 agrees to rounding; fp32 differs only in
// summation order; tf32/fp16/bf16 round at the same points but a different accumulation
// order can flip a rounding, and Adam carries that forward. fp16/bf16 run natively here
// (16-bit tensors, cuDNN/cuBLAS tensor cores with fp32 accumulation) against the CPU's
// emulation; the extra differences are a convolution's output rounded before its bias is
// added (the emulation rounds once after) and tensor-core algorithms' own fp32 order,
// each a unit in the last place of a stored value (CudaHalfParity bounds the ops), so the
// mixed-precision tolerance stays 2e-2: ten Adam steps move the loss far more than that
// if a wiring is wrong (a wrong dtype or a missing refresh of the compute copies).
double training_tolerance(const std::string& precision) {
    if (precision == "fp64") {
        return 1e-9;
    }
    if (precision == "fp32") {
        return 1e-4;
    }
    return 2e-2;
}

struct ModelPrecision {
    const char* model;
    const char* precision;
};

// Readable, stable test names (ctest lists parameter values).
void PrintTo(const ModelPrecision& c, std::ostream* out) {
    *out << c.model << "/" << c.precision;
}

class CudaTrainingParity : public testing::TestWithParam<ModelPrecision> {};

TEST_P(CudaTrainingParity, TenStepsMatchTheCpuBackend) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const ModelPrecision c = GetParam();
    const TrainingConfig config = ten_steps(c.model, c.precision);
    const TrainingResult cpu = train_on(config, "cpu");
    const TrainingResult gpu = train_on(config, "cuda");
    expect_same_losses(gpu, cpu, training_tolerance(c.precision),
                       std::string(c.model) + " " + c.precision);
    EXPECT_EQ(gpu.environment.at("backend"), "cuda");
    EXPECT_EQ(gpu.parameter_count, cpu.parameter_count);
}

INSTANTIATE_TEST_SUITE_P(
    ModelsAndPrecisions, CudaTrainingParity,
    testing::Values(ModelPrecision{"seed-cnn", "fp32"}, ModelPrecision{"seed-cnn", "fp64"},
                    ModelPrecision{"seed-cnn", "tf32"}, ModelPrecision{"seed-cnn", "fp16"},
                    ModelPrecision{"seed-cnn", "bf16"}, ModelPrecision{"lenet5", "fp32"},
                    ModelPrecision{"lenet5", "fp64"}, ModelPrecision{"resnet", "fp32"},
                    ModelPrecision{"resnet", "fp64"}, ModelPrecision{"resnet", "fp16"},
                    ModelPrecision{"resnet", "bf16"}, ModelPrecision{"lenet5", "fp16"}));

struct MemoryStrategy {
    const char* allocator;
    const char* host_memory;
    const char* transfer;
};

void PrintTo(const MemoryStrategy& s, std::ostream* out) {
    *out << s.allocator << "/" << s.host_memory << "/" << s.transfer;
}

class CudaMemoryStrategy : public testing::TestWithParam<MemoryStrategy> {};

TEST_P(CudaMemoryStrategy, TrainsToTheSameLossesAsDeviceAllocation) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const MemoryStrategy s = GetParam();
    TrainingConfig config = ten_steps("resnet", "fp32");
    const TrainingResult reference = train_on(config, "cuda");
    config.allocator = parse_allocator(s.allocator);
    config.host_memory = parse_host_memory(s.host_memory);
    config.transfer = parse_transfer(s.transfer);
    const TrainingResult result = train_on(config, "cuda");
    const std::string what = std::string(s.allocator) + "/" + s.host_memory + "/" + s.transfer;
    expect_same_losses(result, reference, 1e-5, what);
    EXPECT_EQ(result.environment.at("allocator"), s.allocator) << what;
    EXPECT_EQ(result.environment.at("host_memory"), s.host_memory) << what;
    EXPECT_EQ(result.environment.at("transfer"), s.transfer) << what;
    EXPECT_GT(std::stoll(result.environment.at("h2d_bytes")), 0) << what;
    EXPECT_GT(std::stoll(result.environment.at("allocator_peak_bytes")), 0) << what;
}

INSTANTIATE_TEST_SUITE_P(Strategies, CudaMemoryStrategy,
                         testing::Values(MemoryStrategy{"pool", "pageable", "sync"},
                                         MemoryStrategy{"async", "pageable", "sync"},
                                         MemoryStrategy{"managed", "pageable", "sync"},
                                         MemoryStrategy{"device", "pinned", "sync"},
                                         MemoryStrategy{"device", "pinned", "overlap"},
                                         MemoryStrategy{"async", "pinned", "overlap"}));

TEST(CudaRecompute, RecomputingActivationsLowersResnetPeakMemory) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    TrainingConfig config = ten_steps("resnet", "fp32");
    config.batch = 64;
    const TrainingResult keep = train_on(config, "cuda");
    config.activations = Activations::recompute;
    const TrainingResult recompute = train_on(config, "cuda");
    EXPECT_LT(recompute.peak_tensor_bytes, keep.peak_tensor_bytes);
    EXPECT_LT(std::stoll(recompute.environment.at("allocator_peak_bytes")),
              std::stoll(keep.environment.at("allocator_peak_bytes")));
    expect_same_losses(recompute, keep, 1e-5, "recompute vs keep");
}

// seed-cnn's dense layer runs on cuBLAS in a workspace of ours (4 MiB, 32 MiB from Hopper
// on), counted as the workspace class while the GEMM runs; the stacked peak still sums.
TEST(CudaMemoryClass, CublasWorkspaceIsCountedAsWorkspace) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const TrainingResult result = train_on(ten_steps("seed-cnn", "fp32"), "cuda");
    std::int64_t workspace_max = 0;
    std::int64_t peak_sum = 0;
    for (std::size_t c = 0; c < result.max_bytes_by_class.size(); ++c) {
        if (c == tensor_class_index(TensorClass::workspace))
            workspace_max = result.max_bytes_by_class[c];
        peak_sum += result.peak_bytes_by_class[c];
    }
    EXPECT_GE(workspace_max, std::int64_t{4} << 20);
    EXPECT_EQ(peak_sum, result.peak_tensor_bytes);
}

TEST(CudaExhaustiveAlgorithms, TrainsLikeTheHeuristicChoiceAndRecordsAlgorithms) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    TrainingConfig config = ten_steps("seed-cnn", "fp32");
    const TrainingResult heuristic = train_on(config, "cuda");
    config.cudnn_algo = CudnnAlgo::exhaustive;
    const TrainingResult exhaustive = train_on(config, "cuda");
    expect_same_losses(exhaustive, heuristic, 1e-4, "exhaustive vs heuristic");
    int recorded = 0;
    for (const auto& [key, value] : exhaustive.environment) {
        if (key.rfind("cudnn_algorithm/", 0) == 0) {
            ++recorded;
            EXPECT_NE(value.find("exhaustive"), std::string::npos) << key;
            EXPECT_NE(value.find("CUDNN_FMA_MATH"), std::string::npos) << key;
        }
    }
    EXPECT_GE(recorded, 3);  // forward, backward data and backward filter at least
}

}  // namespace
}  // namespace trainscope::workloads
