// Every Backend operation of the CUDA backend on real f16/bf16 tensors against the CPU
// backend's emulation (f32 tensors holding the rounded values, results rounded with
// round_storage), label gpu. Tolerances, as normwise relative error against the emulation:
// - bit-exact where both sides compute the same float value and round it once (relu,
//   add, bias add, max pooling, conversions, fill);
// - 1e-5 for the optimizers' fp32 masters and state (the device may contract a*b+c into
//   one FMA) and 1e-4 for batch norm's fp32 statistics;
// - fp16 4e-3, bf16 3e-2 for anything that sums (convolutions, GEMM, bias gradient,
//   average pooling, batch norm): both accumulate in fp32, but in a different order, and
//   the native path rounds a convolution's output before adding the bias where the
//   emulation rounds once after; that is a few units in the last place of fp16 (2^-11 =
//   4.9e-4) and bf16 (2^-8 = 3.9e-3) at worst, bounded here with head room for cuDNN's
//   tensor-core algorithms (e.g. Winograd) whose fp32 intermediates round differently.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
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

class CudaHalfParity : public testing::TestWithParam<DType> {
  protected:
    void SetUp() override {
        TS_SKIP_WITHOUT_CUDA_DEVICE();
        cpu_ = create_backend("cpu", BackendOptions{});
        gpu_ = create_backend("cuda", BackendOptions{});
        cpu_tensors_ = std::make_unique<TensorAllocator>(cpu_->raw_allocator());
        gpu_tensors_ = std::make_unique<TensorAllocator>(gpu_->raw_allocator());
    }
    void TearDown() override { keep_.clear(); }

    DType storage() const { return GetParam(); }
    StorageRounding rounding() const {
        return storage() == DType::f16 ? StorageRounding::fp16 : StorageRounding::bf16;
    }
    double summing_tolerance() const { return storage() == DType::f16 ? 4e-3 : 3e-2; }

    // `values` rounded to the storage format on both sides (dtype f32 keeps a master).
    TensorPair upload(const Shape& shape, const std::vector<float>& values, bool master = false) {
        TensorPair pair{cpu_tensors_->allocate(shape, DType::f32),
                        gpu_tensors_->allocate(shape, master ? DType::f32 : storage())};
        cpu_->copy_from_host(values.data(), pair.cpu);
        Tensor staging = gpu_tensors_->allocate(shape, DType::f32);
        gpu_->copy_from_host(values.data(), staging);
        if (master) {
            gpu_->copy(staging, pair.gpu);
        } else {
            cpu_->round_storage(pair.cpu, rounding());
            gpu_->convert(staging, pair.gpu);
        }
        gpu_->synchronize();
        keep_.push_back(pair);
        return pair;
    }
    TensorPair random(const Shape& shape, double low = -1.0, double high = 1.0,
                      bool master = false) {
        std::uniform_real_distribution<double> distribution(low, high);
        std::vector<float> values(static_cast<std::size_t>(shape.elements()));
        for (float& v : values) {
            v = static_cast<float>(distribution(engine_));
        }
        return upload(shape, values, master);
    }
    // Distinct values n/256 with |n| <= 256 (exact in f16 and bf16), shuffled: no window
    // holds a tie, whose gradient cuDNN's max pooling may route to another maximum than the
    // CPU backend's first one (Backend.hpp). At most 512 elements.
    TensorPair distinct(const Shape& shape) {
        const std::int64_t count = shape.elements();
        std::vector<float> values(static_cast<std::size_t>(count));
        for (std::int64_t i = 0; i < count; ++i) {
            values[static_cast<std::size_t>(i)] = static_cast<float>(i - count / 2) / 256.0f;
        }
        std::shuffle(values.begin(), values.end(), engine_);
        return upload(shape, values);
    }
    TensorPair zeros(const Shape& shape, bool master = false) {
        return upload(shape, std::vector<float>(static_cast<std::size_t>(shape.elements())),
                      master);
    }
    bool gpu_finite(const Tensor& t) { return parity::all_finite(*gpu_, *gpu_tensors_, t); }
    std::vector<float> read_cpu(const Tensor& t) {
        return parity::read_as_f32(*cpu_, *cpu_tensors_, t);
    }
    // GPU values widened exactly to f32.
    std::vector<float> read_gpu(const Tensor& t) {
        return parity::read_as_f32(*gpu_, *gpu_tensors_, t);
    }
    // The emulation rounds a stored result where the native path stores 16 bits.
    void expect_close(TensorPair& pair, const char* what, double tolerance) {
        if (pair.gpu.dtype() != DType::f32) {
            cpu_->round_storage(pair.cpu, rounding());
        }
        const double error = relative_error(read_gpu(pair.gpu), read_cpu(pair.cpu));
        EXPECT_LT(error, tolerance) << what << " in " << dtype_name(storage());
    }
    void expect_exact(TensorPair& pair, const char* what) {
        if (pair.gpu.dtype() != DType::f32) {
            cpu_->round_storage(pair.cpu, rounding());
        }
        EXPECT_EQ(read_gpu(pair.gpu), read_cpu(pair.cpu))
            << what << " in " << dtype_name(storage());
    }

    std::unique_ptr<Backend> cpu_;
    std::unique_ptr<Backend> gpu_;
    std::unique_ptr<TensorAllocator> cpu_tensors_;
    std::unique_ptr<TensorAllocator> gpu_tensors_;
    std::vector<TensorPair> keep_;
    std::mt19937_64 engine_{23};
};

TEST_P(CudaHalfParity, ConvolutionOnTensorCores) {
    for (const Conv2dGeometry geometry : {Conv2dGeometry{1, 1}, Conv2dGeometry{2, 0}}) {
        const std::int64_t n = 4, c = 8, h = 9, w = 8, k = 16, r = 3;
        const std::int64_t p = conv_output_extent(h, r, geometry.stride, geometry.padding);
        const std::int64_t q = conv_output_extent(w, r, geometry.stride, geometry.padding);
        TensorPair x = random({n, c, h, w});
        TensorPair wt = random({k, c, r, r});
        TensorPair bias = random({k});
        TensorPair y = zeros({n, k, p, q});
        cpu_->conv2d_forward(x.cpu, wt.cpu, bias.cpu, y.cpu, geometry);
        gpu_->conv2d_forward(x.gpu, wt.gpu, bias.gpu, y.gpu, geometry);
        expect_close(y, "conv2d_forward", summing_tolerance());

        TensorPair dy = random({n, k, p, q});
        TensorPair dx = zeros({n, c, h, w});
        cpu_->conv2d_backward_data(dy.cpu, wt.cpu, dx.cpu, geometry);
        gpu_->conv2d_backward_data(dy.gpu, wt.gpu, dx.gpu, geometry);
        expect_close(dx, "conv2d_backward_data", summing_tolerance());

        TensorPair dw = zeros({k, c, r, r});
        TensorPair dbias = zeros({k});
        cpu_->conv2d_backward_filter(x.cpu, dy.cpu, dw.cpu, dbias.cpu, geometry);
        gpu_->conv2d_backward_filter(x.gpu, dy.gpu, dw.gpu, dbias.gpu, geometry);
        expect_close(dw, "conv2d_backward_filter", summing_tolerance());
        expect_close(dbias, "conv2d_backward_filter bias", summing_tolerance());
    }
    const std::string env = gpu_->environment().at("half_precision_storage");
    EXPECT_EQ(env.rfind("native", 0), 0u) << env;
}

TEST_P(CudaHalfParity, GemmWithFp32Accumulation) {
    const std::int64_t m = 24, n = 16, k = 40;
    for (const bool ta : {false, true}) {
        for (const bool tb : {false, true}) {
            TensorPair a = random(ta ? Shape{k, m} : Shape{m, k});
            TensorPair b = random(tb ? Shape{n, k} : Shape{k, n});
            TensorPair c = random({m, n});
            cpu_->gemm(ta, tb, 0.75, a.cpu, b.cpu, 0.5, c.cpu);
            gpu_->gemm(ta, tb, 0.75, a.gpu, b.gpu, 0.5, c.gpu);
            expect_close(c, ta ? (tb ? "gemm TT" : "gemm TN") : (tb ? "gemm NT" : "gemm NN"),
                         summing_tolerance());
        }
    }
}

TEST_P(CudaHalfParity, ElementwiseBiasAndPooling) {
    TensorPair y = random({4, 6, 5, 5});
    TensorPair bias = random({6});
    cpu_->add_bias(y.cpu, bias.cpu);
    gpu_->add_bias(y.gpu, bias.gpu);
    expect_exact(y, "add_bias");  // one float sum of two 16-bit values, rounded once
    TensorPair dbias = zeros({6});
    cpu_->bias_backward(y.cpu, dbias.cpu);
    gpu_->bias_backward(y.gpu, dbias.gpu);
    expect_close(dbias, "bias_backward", summing_tolerance());

    TensorPair r = zeros({4, 6, 5, 5});
    cpu_->relu_forward(y.cpu, r.cpu);
    gpu_->relu_forward(y.gpu, r.gpu);
    expect_exact(r, "relu_forward");
    TensorPair dy = random({4, 6, 5, 5});
    TensorPair dx = zeros({4, 6, 5, 5});
    cpu_->relu_backward(r.cpu, dy.cpu, dx.cpu);
    gpu_->relu_backward(r.gpu, dy.gpu, dx.gpu);
    expect_exact(dx, "relu_backward");
    TensorPair sum = zeros({4, 6, 5, 5});
    cpu_->add(y.cpu, dy.cpu, sum.cpu);
    gpu_->add(y.gpu, dy.gpu, sum.gpu);
    expect_exact(sum, "add");

    TensorPair g = zeros({4, 6});
    cpu_->global_avg_pool_forward(y.cpu, g.cpu);
    gpu_->global_avg_pool_forward(y.gpu, g.gpu);
    expect_close(g, "global_avg_pool_forward", summing_tolerance());
    TensorPair dg = random({4, 6});
    TensorPair dgx = zeros({4, 6, 5, 5});
    cpu_->global_avg_pool_backward(dg.cpu, dgx.cpu);
    gpu_->global_avg_pool_backward(dg.gpu, dgx.gpu);
    expect_close(dgx, "global_avg_pool_backward", summing_tolerance());

    for (const Pool2dGeometry pg : {Pool2dGeometry{2, 2, 0}, Pool2dGeometry{3, 2, 1}}) {
        const std::int64_t p = conv_output_extent(8, pg.window, pg.stride, pg.padding);
        TensorPair x = distinct({2, 3, 8, 8});
        TensorPair py = zeros({2, 3, p, p});
        cpu_->max_pool_forward(x.cpu, py.cpu, pg);
        gpu_->max_pool_forward(x.gpu, py.gpu, pg);
        expect_exact(py, "max_pool_forward");
        TensorPair pdy = random({2, 3, p, p});
        TensorPair pdx = zeros({2, 3, 8, 8});
        cpu_->max_pool_backward(x.cpu, py.cpu, pdy.cpu, pdx.cpu, pg);
        gpu_->max_pool_backward(x.gpu, py.gpu, pdy.gpu, pdx.gpu, pg);
        expect_close(pdx, "max_pool_backward", summing_tolerance());
        cpu_->avg_pool_forward(x.cpu, py.cpu, pg);
        gpu_->avg_pool_forward(x.gpu, py.gpu, pg);
        expect_close(py, "avg_pool_forward", summing_tolerance());
        cpu_->avg_pool_backward(pdy.cpu, pdx.cpu, pg);
        gpu_->avg_pool_backward(pdy.gpu, pdx.gpu, pg);
        expect_close(pdx, "avg_pool_backward", summing_tolerance());
    }
}

TEST_P(CudaHalfParity, BatchNormWithFp32ParametersAndStatistics) {
    const Shape shape{4, 3, 5, 5};
    TensorPair x = random(shape, -2.0, 3.0);
    TensorPair gamma = random({3}, 0.5, 1.5, true);
    TensorPair beta = random({3}, -1.0, 1.0, true);
    TensorPair running_mean = zeros({3}, true);
    TensorPair running_var = upload({3}, std::vector<float>(3, 1.0f), true);
    TensorPair saved_mean = zeros({3}, true);
    TensorPair saved_inv_std = zeros({3}, true);
    TensorPair y = zeros(shape);
    const BatchNormSettings settings;
    cpu_->batch_norm_forward_training(x.cpu, gamma.cpu, beta.cpu, y.cpu, running_mean.cpu,
                                      running_var.cpu, saved_mean.cpu, saved_inv_std.cpu, settings,
                                      true);
    gpu_->batch_norm_forward_training(x.gpu, gamma.gpu, beta.gpu, y.gpu, running_mean.gpu,
                                      running_var.gpu, saved_mean.gpu, saved_inv_std.gpu, settings,
                                      true);
    expect_close(y, "batch_norm_forward_training y", summing_tolerance());
    expect_close(saved_mean, "saved_mean", 1e-4);  // f32 statistics of the same inputs
    expect_close(saved_inv_std, "saved_inv_std", 1e-4);
    expect_close(running_mean, "running_mean", 1e-4);
    expect_close(running_var, "running_var", 1e-4);
    TensorPair dy = random(shape);
    TensorPair dx = zeros(shape);
    TensorPair dgamma = zeros({3}, true);
    TensorPair dbeta = zeros({3}, true);
    cpu_->batch_norm_backward(x.cpu, dy.cpu, gamma.cpu, saved_mean.cpu, saved_inv_std.cpu, dx.cpu,
                              dgamma.cpu, dbeta.cpu, BatchNormSettings{});
    gpu_->batch_norm_backward(x.gpu, dy.gpu, gamma.gpu, saved_mean.gpu, saved_inv_std.gpu, dx.gpu,
                              dgamma.gpu, dbeta.gpu, BatchNormSettings{});
    expect_close(dx, "batch_norm_backward dx", summing_tolerance());
    expect_close(dgamma, "dgamma", 1e-4);
    expect_close(dbeta, "dbeta", 1e-4);
    cpu_->batch_norm_forward_inference(x.cpu, gamma.cpu, beta.cpu, running_mean.cpu,
                                       running_var.cpu, y.cpu, settings);
    gpu_->batch_norm_forward_inference(x.gpu, gamma.gpu, beta.gpu, running_mean.gpu,
                                       running_var.gpu, y.gpu, settings);
    expect_close(y, "batch_norm_forward_inference", summing_tolerance());
}

TEST_P(CudaHalfParity, SoftmaxCrossEntropyReadsAndWrites16Bit) {
    const std::int64_t rows = 33, classes = 10;
    TensorPair logits = random({rows, classes}, -5.0, 5.0);
    std::vector<std::int32_t> labels(static_cast<std::size_t>(rows));
    for (std::size_t i = 0; i < labels.size(); ++i) {
        labels[i] = static_cast<std::int32_t>((i * 7) % classes);
    }
    TensorPair label_tensors{cpu_tensors_->allocate({rows}, DType::i32),
                             gpu_tensors_->allocate({rows}, DType::i32)};
    cpu_->copy_from_host(labels.data(), label_tensors.cpu);
    gpu_->copy_from_host(labels.data(), label_tensors.gpu);
    keep_.push_back(label_tensors);
    TensorPair dlogits = zeros({rows, classes});
    CrossEntropyTotals cpu_totals;
    CrossEntropyTotals gpu_totals;
    cpu_->softmax_cross_entropy(logits.cpu, label_tensors.cpu, 1024.0, dlogits.cpu, cpu_totals);
    gpu_->softmax_cross_entropy(logits.gpu, label_tensors.gpu, 1024.0, dlogits.gpu, gpu_totals);
    // Same (exact) logits, same double math, the gradient rounded float -> 16-bit once on
    // both sides; only the last bits of the device's exp may differ.
    expect_close(dlogits, "dlogits", summing_tolerance());
    EXPECT_NEAR(gpu_totals.loss_sum, cpu_totals.loss_sum, 1e-9 * std::abs(cpu_totals.loss_sum));
    EXPECT_EQ(gpu_totals.correct, cpu_totals.correct);
}

TEST_P(CudaHalfParity, OptimizersUpdateFp32MastersFrom16BitGradients) {
    const Shape shape{300};
    TensorPair p = random(shape, -1.0, 1.0, true);
    TensorPair g = random(shape, -50.0, 50.0);
    TensorPair velocity = zeros(shape, true);
    for (int step = 0; step < 3; ++step) {
        cpu_->sgd_update(p.cpu, g.cpu, velocity.cpu, SgdSettings{0.05, 0.9, 1e-3}, 0.25, Tensor());
        gpu_->sgd_update(p.gpu, g.gpu, velocity.gpu, SgdSettings{0.05, 0.9, 1e-3}, 0.25, Tensor());
    }
    expect_close(p, "sgd parameter", 1e-5);
    expect_close(velocity, "sgd velocity", 1e-5);
    TensorPair m = zeros(shape, true);
    TensorPair v = zeros(shape, true);
    AdamSettings settings;
    for (std::int64_t step = 1; step <= 3; ++step) {
        settings.step = step;
        cpu_->adam_update(p.cpu, g.cpu, m.cpu, v.cpu, settings, 0.5, Tensor());
        gpu_->adam_update(p.gpu, g.gpu, m.gpu, v.gpu, settings, 0.5, Tensor());
    }
    expect_close(p, "adam parameter", 1e-5);
    expect_close(m, "adam first moment", 1e-5);
    expect_close(v, "adam second moment", 1e-5);
}

TEST_P(CudaHalfParity, ConvertFillAndFiniteCheck) {
    // f32 -> 16-bit equals round_storage bit for bit, including overflow and subnormals.
    std::vector<float> values(1000);
    std::mt19937 engine(3);
    std::uniform_real_distribution<float> exponent(-30.0f, 20.0f);
    for (float& v : values) {
        v = std::exp2(exponent(engine)) * ((engine() & 1u) != 0u ? -1.0f : 1.0f);
    }
    values[0] = 65519.0f;
    values[1] = 65520.0f;
    TensorPair t = upload({1000}, values);
    expect_exact(t, "convert");
    // 65520 overflows fp16 to infinity; bf16 has fp32's range.
    EXPECT_EQ(gpu_finite(t.gpu), storage() == DType::bf16);
    TensorPair f = zeros({5, 7});
    cpu_->fill(f.cpu, 0.1);
    gpu_->fill(f.gpu, 0.1);
    expect_exact(f, "fill");
    EXPECT_TRUE(gpu_finite(f.gpu));
    gpu_->fill(f.gpu, std::numeric_limits<double>::infinity());
    EXPECT_FALSE(gpu_finite(f.gpu));
    std::vector<float> with_nan(35, 1.0f);
    with_nan[17] = std::numeric_limits<float>::quiet_NaN();
    TensorPair nan = upload({35}, with_nan);
    EXPECT_FALSE(gpu_finite(nan.gpu));
}

INSTANTIATE_TEST_SUITE_P(SixteenBit, CudaHalfParity, testing::Values(DType::f16, DType::bf16),
                         [](const testing::TestParamInfo<DType>& param_info) {
                             return std::string(dtype_name(param_info.param));
                         });

}  // namespace
}  // namespace trainscope::workloads
