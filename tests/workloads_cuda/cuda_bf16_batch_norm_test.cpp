// bf16 batch norm on the CUDA backend's own kernels (cuDNN's batch norm is not used for
// bf16, as in PyTorch; docs/cuda-backend.md) against the CPU backend's bf16 emulation,
// label gpu. Tolerances as cuda_half_parity_test.cpp: 3e-2 normwise for the bf16 outputs
// (y, dx: the same float value up to the sums' order, rounded once to bf16), 1e-4 for the
// f32 statistics and parameter gradients. Channels of one slice and of many (the
// statistics grid's blocks, ChannelReductionMath.hpp), smaller than a block, and [N, C]
// input are covered; the reductions have a fixed order, so repeated launches are compared
// bit for bit.
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "GpuTestSupport.hpp"
#include "ParityTestSupport.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/memory/TensorAllocator.hpp"

namespace trainscope::workloads {
namespace {

using parity::relative_error;
using parity::TensorPair;

constexpr double kBf16Tolerance = 3e-2;
constexpr double kStatisticsTolerance = 1e-4;

// A parameter that prints as its shape in test names and failures.
struct Case {
    Shape shape;
};

void PrintTo(const Case& c, std::ostream* out) {
    *out << c.shape.to_string();
}

class CudaBf16BatchNorm : public testing::TestWithParam<Case> {
  protected:
    void SetUp() override {
        TS_SKIP_WITHOUT_CUDA_DEVICE();
        cpu_ = create_backend("cpu", BackendOptions{});
        gpu_ = create_backend("cuda", BackendOptions{});
        cpu_tensors_ = std::make_unique<TensorAllocator>(cpu_->raw_allocator());
        gpu_tensors_ = std::make_unique<TensorAllocator>(gpu_->raw_allocator());
    }
    void TearDown() override { keep_.clear(); }

    // `values` on both sides: bf16 on the GPU and bf16-rounded f32 on the CPU, or f32 on
    // both for a `master` (parameters and statistics).
    TensorPair upload(const Shape& shape, const std::vector<float>& values, bool master = false) {
        TensorPair pair{cpu_tensors_->allocate(shape, DType::f32),
                        gpu_tensors_->allocate(shape, master ? DType::f32 : DType::bf16)};
        cpu_->copy_from_host(values.data(), pair.cpu);
        Tensor staging = gpu_tensors_->allocate(shape, DType::f32);
        gpu_->copy_from_host(values.data(), staging);
        if (master) {
            gpu_->copy(staging, pair.gpu);
        } else {
            cpu_->round_storage(pair.cpu, StorageRounding::bf16);
            gpu_->convert(staging, pair.gpu);
        }
        gpu_->synchronize();
        keep_.push_back(pair);
        return pair;
    }
    TensorPair random(const Shape& shape, double low, double high, bool master = false) {
        std::uniform_real_distribution<double> distribution(low, high);
        std::vector<float> values(static_cast<std::size_t>(shape.elements()));
        for (float& v : values) {
            v = static_cast<float>(distribution(engine_));
        }
        return upload(shape, values, master);
    }
    TensorPair filled(const Shape& shape, float value, bool master = false) {
        return upload(shape, std::vector<float>(static_cast<std::size_t>(shape.elements()), value),
                      master);
    }
    std::vector<float> read_cpu(const Tensor& t) {
        return parity::read_as_f32(*cpu_, *cpu_tensors_, t);
    }
    // GPU values widened exactly to f32.
    std::vector<float> read_gpu(const Tensor& t) {
        return parity::read_as_f32(*gpu_, *gpu_tensors_, t);
    }
    // The emulation rounds a stored bf16 result where the native path stores 16 bits.
    void expect_close(TensorPair& pair, const std::string& what, double tolerance) {
        if (pair.gpu.dtype() == DType::bf16) {
            cpu_->round_storage(pair.cpu, StorageRounding::bf16);
        }
        const double error = relative_error(read_gpu(pair.gpu), read_cpu(pair.cpu));
        EXPECT_LT(error, tolerance) << what << " for shape " << GetParam().shape.to_string();
    }

    const Shape& param_shape() const { return GetParam().shape; }
    std::int64_t channels() const { return param_shape()[1]; }

    std::unique_ptr<Backend> cpu_;
    std::unique_ptr<Backend> gpu_;
    std::unique_ptr<TensorAllocator> cpu_tensors_;
    std::unique_ptr<TensorAllocator> gpu_tensors_;
    std::vector<TensorPair> keep_;
    std::mt19937_64 engine_{41};
};

TEST_P(CudaBf16BatchNorm, TrainingInferenceAndBackwardMatchTheCpuEmulation) {
    const Shape shape = param_shape();
    const Shape per_channel{channels()};
    TensorPair x = random(shape, -2.0, 3.0);
    TensorPair gamma = random(per_channel, 0.5, 1.5, true);
    TensorPair beta = random(per_channel, -1.0, 1.0, true);
    TensorPair running_mean = random(per_channel, -0.5, 0.5, true);
    TensorPair running_var = random(per_channel, 0.5, 2.0, true);
    TensorPair saved_mean = filled(per_channel, 0.0f, true);
    TensorPair saved_inv_std = filled(per_channel, 0.0f, true);
    TensorPair y = filled(shape, 0.0f);
    const BatchNormSettings settings{0.1, 1e-5};
    // Three steps, so the running statistics blend more than once.
    for (int step = 0; step < 3; ++step) {
        cpu_->batch_norm_forward_training(x.cpu, gamma.cpu, beta.cpu, y.cpu, running_mean.cpu,
                                          running_var.cpu, saved_mean.cpu, saved_inv_std.cpu,
                                          settings, true);
        gpu_->batch_norm_forward_training(x.gpu, gamma.gpu, beta.gpu, y.gpu, running_mean.gpu,
                                          running_var.gpu, saved_mean.gpu, saved_inv_std.gpu,
                                          settings, true);
    }
    expect_close(y, "batch_norm_forward_training y", kBf16Tolerance);
    expect_close(saved_mean, "saved_mean", kStatisticsTolerance);
    expect_close(saved_inv_std, "saved_inv_std", kStatisticsTolerance);
    expect_close(running_mean, "running_mean", kStatisticsTolerance);
    expect_close(running_var, "running_var", kStatisticsTolerance);

    TensorPair dy = random(shape, -1.0, 1.0);
    TensorPair dx = filled(shape, 0.0f);
    TensorPair dgamma = filled(per_channel, 0.0f, true);
    TensorPair dbeta = filled(per_channel, 0.0f, true);
    cpu_->batch_norm_backward(x.cpu, dy.cpu, gamma.cpu, saved_mean.cpu, saved_inv_std.cpu, dx.cpu,
                              dgamma.cpu, dbeta.cpu, BatchNormSettings{});
    gpu_->batch_norm_backward(x.gpu, dy.gpu, gamma.gpu, saved_mean.gpu, saved_inv_std.gpu, dx.gpu,
                              dgamma.gpu, dbeta.gpu, BatchNormSettings{});
    expect_close(dx, "batch_norm_backward dx", kBf16Tolerance);
    expect_close(dgamma, "dgamma", kStatisticsTolerance);
    expect_close(dbeta, "dbeta", kStatisticsTolerance);

    cpu_->batch_norm_forward_inference(x.cpu, gamma.cpu, beta.cpu, running_mean.cpu,
                                       running_var.cpu, y.cpu, settings);
    gpu_->batch_norm_forward_inference(x.gpu, gamma.gpu, beta.gpu, running_mean.gpu,
                                       running_var.gpu, y.gpu, settings);
    expect_close(y, "batch_norm_forward_inference", kBf16Tolerance);
}

TEST_P(CudaBf16BatchNorm, RecomputeLeavesRunningStatisticsAlone) {
    const Shape shape = param_shape();
    const Shape per_channel{channels()};
    TensorPair x = random(shape, -2.0, 3.0);
    TensorPair gamma = random(per_channel, 0.5, 1.5, true);
    TensorPair beta = random(per_channel, -1.0, 1.0, true);
    TensorPair running_mean = random(per_channel, -0.5, 0.5, true);
    TensorPair running_var = random(per_channel, 0.5, 2.0, true);
    TensorPair saved_mean = filled(per_channel, 0.0f, true);
    TensorPair saved_inv_std = filled(per_channel, 0.0f, true);
    TensorPair y = filled(shape, 0.0f);
    const std::vector<float> mean_before = read_gpu(running_mean.gpu);
    const std::vector<float> var_before = read_gpu(running_var.gpu);
    cpu_->batch_norm_forward_training(x.cpu, gamma.cpu, beta.cpu, y.cpu, running_mean.cpu,
                                      running_var.cpu, saved_mean.cpu, saved_inv_std.cpu,
                                      BatchNormSettings{}, false);
    gpu_->batch_norm_forward_training(x.gpu, gamma.gpu, beta.gpu, y.gpu, running_mean.gpu,
                                      running_var.gpu, saved_mean.gpu, saved_inv_std.gpu,
                                      BatchNormSettings{}, false);
    EXPECT_EQ(read_gpu(running_mean.gpu), mean_before);
    EXPECT_EQ(read_gpu(running_var.gpu), var_before);
    expect_close(y, "recomputed y", kBf16Tolerance);
    expect_close(saved_mean, "recomputed saved_mean", kStatisticsTolerance);
    expect_close(saved_inv_std, "recomputed saved_inv_std", kStatisticsTolerance);
}

TEST_P(CudaBf16BatchNorm, RepeatedLaunchesGiveTheSameBits) {
    const Shape shape = param_shape();
    const Shape per_channel{channels()};
    TensorPair x = random(shape, -2.0, 3.0);
    TensorPair dy = random(shape, -1.0, 1.0);
    TensorPair gamma = random(per_channel, 0.5, 1.5, true);
    TensorPair beta = random(per_channel, -1.0, 1.0, true);
    TensorPair running_mean = filled(per_channel, 0.0f, true);
    TensorPair running_var = filled(per_channel, 1.0f, true);
    struct Outputs {
        std::vector<float> y, saved_mean, saved_inv_std, dx, dgamma, dbeta;
        bool operator==(const Outputs&) const = default;
    };
    auto run = [&]() {
        TensorPair y = filled(shape, 0.0f);
        TensorPair saved_mean = filled(per_channel, 0.0f, true);
        TensorPair saved_inv_std = filled(per_channel, 0.0f, true);
        TensorPair dx = filled(shape, 0.0f);
        TensorPair dgamma = filled(per_channel, 0.0f, true);
        TensorPair dbeta = filled(per_channel, 0.0f, true);
        gpu_->batch_norm_forward_training(x.gpu, gamma.gpu, beta.gpu, y.gpu, running_mean.gpu,
                                          running_var.gpu, saved_mean.gpu, saved_inv_std.gpu,
                                          BatchNormSettings{}, false);
        gpu_->batch_norm_backward(x.gpu, dy.gpu, gamma.gpu, saved_mean.gpu, saved_inv_std.gpu,
                                  dx.gpu, dgamma.gpu, dbeta.gpu, BatchNormSettings{});
        return Outputs{read_gpu(y.gpu),  read_gpu(saved_mean.gpu), read_gpu(saved_inv_std.gpu),
                       read_gpu(dx.gpu), read_gpu(dgamma.gpu),     read_gpu(dbeta.gpu)};
    };
    const Outputs first = run();
    for (int repeat = 0; repeat < 3; ++repeat) {
        EXPECT_TRUE(run() == first) << "repeat " << repeat;
    }
}

TEST(CudaBf16BatchNormPath, EnvironmentSaysOwnKernels) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const auto env = create_backend("cuda", BackendOptions{})->environment();
    ASSERT_EQ(env.count("batch_norm_bf16"), 1u);
    EXPECT_EQ(env.at("batch_norm_bf16").rfind("own kernels", 0), 0u) << env.at("batch_norm_bf16");
}

// [4,3,5,5]: 100 elements a channel (fewer than a block's threads); [32,4,20,20]: 12800
// (7 slices, the last short); [64,6]: dense input (area 1); [128,8,16,16]: 32768 (16
// slices); [256,3,11,11]: 30976 (16 slices over planes of 121, the last short);
// [5000,4]: dense over 3 slices.
INSTANTIATE_TEST_SUITE_P(Bf16, CudaBf16BatchNorm,
                         testing::Values(Case{{4, 3, 5, 5}}, Case{{32, 4, 20, 20}}, Case{{64, 6}},
                                         Case{{128, 8, 16, 16}}, Case{{256, 3, 11, 11}},
                                         Case{{5000, 4}}),
                         [](const testing::TestParamInfo<Case>& param_info) {
                             return param_info.param.shape.to_string();
                         });

}  // namespace
}  // namespace trainscope::workloads
