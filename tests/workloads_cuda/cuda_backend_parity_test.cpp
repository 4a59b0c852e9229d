// Every Backend operation on the CUDA backend against the CPU backend (label gpu).
// Tolerances, as normwise relative error: fp64 1e-9, fp32 1e-4, tf32 5e-3.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "GpuTestSupport.hpp"
#include "ParityTestSupport.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/memory/TensorAllocator.hpp"

namespace trainscope::workloads {
namespace {

using parity::relative_error;
using parity::TensorPair;

template <typename T>
constexpr DType dtype_of() {
    return sizeof(T) == 8 ? DType::f64 : DType::f32;
}

template <typename T>
double tolerance() {
    return sizeof(T) == 8 ? 1e-9 : 1e-4;
}

template <typename T>
class CudaParityTest : public testing::Test {
  protected:
    void SetUp() override {
        TS_SKIP_WITHOUT_CUDA_DEVICE();
        cpu_ = create_backend("cpu", BackendOptions{});
        gpu_ = create_backend("cuda", BackendOptions{});
        cpu_tensors_ = std::make_unique<TensorAllocator>(cpu_->raw_allocator());
        gpu_tensors_ = std::make_unique<TensorAllocator>(gpu_->raw_allocator());
    }
    void TearDown() override {
        // Tensors die before their allocators and backends (members are in that order).
        keep_.clear();
    }

    TensorPair upload(const Shape& shape, const std::vector<T>& values) {
        TensorPair pair{cpu_tensors_->allocate(shape, dtype_of<T>()),
                        gpu_tensors_->allocate(shape, dtype_of<T>())};
        cpu_->copy_from_host(values.data(), pair.cpu);
        gpu_->copy_from_host(values.data(), pair.gpu);
        keep_.push_back(pair);
        return pair;
    }
    TensorPair random(const Shape& shape, double low = -1.0, double high = 1.0) {
        std::uniform_real_distribution<double> distribution(low, high);
        std::vector<T> values(static_cast<std::size_t>(shape.elements()));
        for (T& v : values) {
            v = static_cast<T>(distribution(engine_));
        }
        return upload(shape, values);
    }
    TensorPair zeros(const Shape& shape) {
        return upload(shape, std::vector<T>(static_cast<std::size_t>(shape.elements()), T(0)));
    }
    bool gpu_finite(const Tensor& t) { return parity::all_finite(*gpu_, *gpu_tensors_, t); }
    std::vector<T> read(Backend& backend, const Tensor& t) {
        std::vector<T> values(static_cast<std::size_t>(t.elements()));
        backend.copy_to_host(t, values.data());
        return values;
    }
    void expect_same(const TensorPair& pair, const char* what, double tol = tolerance<T>()) {
        gpu_->synchronize();
        const double error = relative_error(read(*gpu_, pair.gpu), read(*cpu_, pair.cpu));
        EXPECT_LT(error, tol) << what;
    }

    std::unique_ptr<Backend> cpu_;
    std::unique_ptr<Backend> gpu_;
    std::unique_ptr<TensorAllocator> cpu_tensors_;
    std::unique_ptr<TensorAllocator> gpu_tensors_;
    std::vector<TensorPair> keep_;
    std::mt19937_64 engine_{11};
};

using FloatTypes = testing::Types<float, double>;
TYPED_TEST_SUITE(CudaParityTest, FloatTypes);

TYPED_TEST(CudaParityTest, ConvolutionForwardAndBackward) {
    for (const Conv2dGeometry geometry : {Conv2dGeometry{1, 1}, Conv2dGeometry{2, 0}}) {
        const std::int64_t n = 3, c = 4, h = 9, w = 8, k = 5, r = 3;
        const std::int64_t p = conv_output_extent(h, r, geometry.stride, geometry.padding);
        const std::int64_t q = conv_output_extent(w, r, geometry.stride, geometry.padding);
        TensorPair x = this->random({n, c, h, w});
        TensorPair wt = this->random({k, c, r, r});
        TensorPair bias = this->random({k});
        TensorPair y = this->zeros({n, k, p, q});
        this->cpu_->conv2d_forward(x.cpu, wt.cpu, bias.cpu, y.cpu, geometry);
        this->gpu_->conv2d_forward(x.gpu, wt.gpu, bias.gpu, y.gpu, geometry);
        this->expect_same(y, "conv2d_forward");

        TensorPair dy = this->random({n, k, p, q});
        TensorPair dx = this->zeros({n, c, h, w});
        this->cpu_->conv2d_backward_data(dy.cpu, wt.cpu, dx.cpu, geometry);
        this->gpu_->conv2d_backward_data(dy.gpu, wt.gpu, dx.gpu, geometry);
        this->expect_same(dx, "conv2d_backward_data");

        TensorPair dw = this->zeros({k, c, r, r});
        TensorPair dbias = this->zeros({k});
        this->cpu_->conv2d_backward_filter(x.cpu, dy.cpu, dw.cpu, dbias.cpu, geometry);
        this->gpu_->conv2d_backward_filter(x.gpu, dy.gpu, dw.gpu, dbias.gpu, geometry);
        this->expect_same(dw, "conv2d_backward_filter");
        this->expect_same(dbias, "conv2d_backward_filter bias");
    }
}

TYPED_TEST(CudaParityTest, GemmInEveryTransposition) {
    const std::int64_t m = 7, n = 5, k = 9;
    for (const bool ta : {false, true}) {
        for (const bool tb : {false, true}) {
            TensorPair a = this->random(ta ? Shape{k, m} : Shape{m, k});
            TensorPair b = this->random(tb ? Shape{n, k} : Shape{k, n});
            TensorPair c = this->random({m, n});
            this->cpu_->gemm(ta, tb, 0.75, a.cpu, b.cpu, 0.5, c.cpu);
            this->gpu_->gemm(ta, tb, 0.75, a.gpu, b.gpu, 0.5, c.gpu);
            this->expect_same(c, ta ? (tb ? "gemm TT" : "gemm TN") : (tb ? "gemm NT" : "gemm NN"));
        }
    }
}

TYPED_TEST(CudaParityTest, BiasReluAddAndGlobalPooling) {
    TensorPair y = this->random({4, 6, 5, 5});
    TensorPair bias = this->random({6});
    this->cpu_->add_bias(y.cpu, bias.cpu);
    this->gpu_->add_bias(y.gpu, bias.gpu);
    this->expect_same(y, "add_bias");
    TensorPair dbias = this->zeros({6});
    this->cpu_->bias_backward(y.cpu, dbias.cpu);
    this->gpu_->bias_backward(y.gpu, dbias.gpu);
    this->expect_same(dbias, "bias_backward");

    TensorPair r = this->zeros({4, 6, 5, 5});
    this->cpu_->relu_forward(y.cpu, r.cpu);
    this->gpu_->relu_forward(y.gpu, r.gpu);
    this->expect_same(r, "relu_forward");
    TensorPair dy = this->random({4, 6, 5, 5});
    TensorPair dx = this->zeros({4, 6, 5, 5});
    this->cpu_->relu_backward(r.cpu, dy.cpu, dx.cpu);
    this->gpu_->relu_backward(r.gpu, dy.gpu, dx.gpu);
    this->expect_same(dx, "relu_backward");

    TensorPair sum = this->zeros({4, 6, 5, 5});
    this->cpu_->add(y.cpu, dy.cpu, sum.cpu);
    this->gpu_->add(y.gpu, dy.gpu, sum.gpu);
    this->expect_same(sum, "add");

    TensorPair g = this->zeros({4, 6});
    this->cpu_->global_avg_pool_forward(y.cpu, g.cpu);
    this->gpu_->global_avg_pool_forward(y.gpu, g.gpu);
    this->expect_same(g, "global_avg_pool_forward");
    TensorPair dg = this->random({4, 6});
    TensorPair dgx = this->zeros({4, 6, 5, 5});
    this->cpu_->global_avg_pool_backward(dg.cpu, dgx.cpu);
    this->gpu_->global_avg_pool_backward(dg.gpu, dgx.gpu);
    this->expect_same(dgx, "global_avg_pool_backward");
}

// The per-channel kernels on shapes that spread over many blocks: bias_backward's channels
// over several slices (the last short) and [N, C] input, global average pooling with
// planes that take 16-byte loads (8 x 8) and planes that do not (17 x 17, odd). The
// reductions have a fixed order, so repeated launches give the same bits.
TYPED_TEST(CudaParityTest, PerChannelKernelsSpreadOverTheDeviceAndRepeatTheirBits) {
    for (const Shape shape : {Shape{64, 48, 17, 17}, Shape{32, 64, 8, 8}, Shape{3000, 10}}) {
        const std::int64_t channels = shape[1];
        TensorPair y = this->random(shape);
        TensorPair bias = this->random({channels});
        this->cpu_->add_bias(y.cpu, bias.cpu);
        this->gpu_->add_bias(y.gpu, bias.gpu);
        this->expect_same(y, "add_bias");

        TensorPair dbias = this->zeros({channels});
        this->cpu_->bias_backward(y.cpu, dbias.cpu);
        this->gpu_->bias_backward(y.gpu, dbias.gpu);
        this->expect_same(dbias, "bias_backward");
        const std::vector<TypeParam> first_dbias = this->read(*this->gpu_, dbias.gpu);
        for (int repeat = 0; repeat < 3; ++repeat) {
            this->gpu_->bias_backward(y.gpu, dbias.gpu);
            EXPECT_EQ(this->read(*this->gpu_, dbias.gpu), first_dbias) << "repeat " << repeat;
        }

        if (shape.rank() == 4) {
            TensorPair g = this->zeros({shape[0], channels});
            this->cpu_->global_avg_pool_forward(y.cpu, g.cpu);
            this->gpu_->global_avg_pool_forward(y.gpu, g.gpu);
            this->expect_same(g, "global_avg_pool_forward");
            const std::vector<TypeParam> first_g = this->read(*this->gpu_, g.gpu);
            for (int repeat = 0; repeat < 3; ++repeat) {
                this->gpu_->global_avg_pool_forward(y.gpu, g.gpu);
                EXPECT_EQ(this->read(*this->gpu_, g.gpu), first_g) << "repeat " << repeat;
            }
        }
    }
}

// Random doubles and floats make ties within a window practically impossible; a tie
// may route max pooling's gradient differently on cuDNN (see Backend.hpp).
TYPED_TEST(CudaParityTest, MaxAndAveragePooling) {
    for (const Pool2dGeometry g : {Pool2dGeometry{2, 2, 0}, Pool2dGeometry{3, 2, 1}}) {
        const std::int64_t p = conv_output_extent(8, g.window, g.stride, g.padding);
        TensorPair x = this->random({2, 3, 8, 8});
        TensorPair y = this->zeros({2, 3, p, p});
        this->cpu_->max_pool_forward(x.cpu, y.cpu, g);
        this->gpu_->max_pool_forward(x.gpu, y.gpu, g);
        this->expect_same(y, "max_pool_forward");
        TensorPair dy = this->random({2, 3, p, p});
        TensorPair dx = this->zeros({2, 3, 8, 8});
        this->cpu_->max_pool_backward(x.cpu, y.cpu, dy.cpu, dx.cpu, g);
        this->gpu_->max_pool_backward(x.gpu, y.gpu, dy.gpu, dx.gpu, g);
        this->expect_same(dx, "max_pool_backward");
        this->cpu_->avg_pool_forward(x.cpu, y.cpu, g);
        this->gpu_->avg_pool_forward(x.gpu, y.gpu, g);
        this->expect_same(y, "avg_pool_forward");
        this->cpu_->avg_pool_backward(dy.cpu, dx.cpu, g);
        this->gpu_->avg_pool_backward(dy.gpu, dx.gpu, g);
        this->expect_same(dx, "avg_pool_backward");
    }
}

TYPED_TEST(CudaParityTest, BatchNormTrainingInferenceAndBackward) {
    const Shape shape{4, 3, 5, 5};
    TensorPair x = this->random(shape, -2.0, 3.0);
    TensorPair gamma = this->random({3}, 0.5, 1.5);
    TensorPair beta = this->random({3});
    TensorPair running_mean = this->zeros({3});
    TensorPair running_var = this->upload({3}, std::vector<TypeParam>(3, TypeParam(1)));
    TensorPair saved_mean = this->zeros({3});
    TensorPair saved_inv_std = this->zeros({3});
    TensorPair y = this->zeros(shape);
    const BatchNormSettings settings;
    for (const bool update_running : {true, false}) {
        this->cpu_->batch_norm_forward_training(x.cpu, gamma.cpu, beta.cpu, y.cpu, running_mean.cpu,
                                                running_var.cpu, saved_mean.cpu, saved_inv_std.cpu,
                                                settings, update_running);
        this->gpu_->batch_norm_forward_training(x.gpu, gamma.gpu, beta.gpu, y.gpu, running_mean.gpu,
                                                running_var.gpu, saved_mean.gpu, saved_inv_std.gpu,
                                                settings, update_running);
        this->expect_same(y, "batch_norm_forward_training y");
        this->expect_same(saved_mean, "saved_mean");
        this->expect_same(saved_inv_std, "saved_inv_std");
        this->expect_same(running_mean, "running_mean");
        this->expect_same(running_var, "running_var");
    }
    TensorPair dy = this->random(shape);
    TensorPair dx = this->zeros(shape);
    TensorPair dgamma = this->zeros({3});
    TensorPair dbeta = this->zeros({3});
    this->cpu_->batch_norm_backward(x.cpu, dy.cpu, gamma.cpu, saved_mean.cpu, saved_inv_std.cpu,
                                    dx.cpu, dgamma.cpu, dbeta.cpu, BatchNormSettings{});
    this->gpu_->batch_norm_backward(x.gpu, dy.gpu, gamma.gpu, saved_mean.gpu, saved_inv_std.gpu,
                                    dx.gpu, dgamma.gpu, dbeta.gpu, BatchNormSettings{});
    this->expect_same(dx, "batch_norm_backward dx");
    this->expect_same(dgamma, "dgamma");
    this->expect_same(dbeta, "dbeta");
    this->cpu_->batch_norm_forward_inference(x.cpu, gamma.cpu, beta.cpu, running_mean.cpu,
                                             running_var.cpu, y.cpu, settings);
    this->gpu_->batch_norm_forward_inference(x.gpu, gamma.gpu, beta.gpu, running_mean.gpu,
                                             running_var.gpu, y.gpu, settings);
    this->expect_same(y, "batch_norm_forward_inference");
}

TYPED_TEST(CudaParityTest, SoftmaxCrossEntropy) {
    const std::int64_t rows = 33, classes = 10;
    TensorPair logits = this->random({rows, classes}, -5.0, 5.0);
    std::vector<std::int32_t> labels(static_cast<std::size_t>(rows));
    for (std::size_t i = 0; i < labels.size(); ++i) {
        labels[i] = static_cast<std::int32_t>((i * 7) % classes);
    }
    TensorPair label_tensors{this->cpu_tensors_->allocate({rows}, DType::i32),
                             this->gpu_tensors_->allocate({rows}, DType::i32)};
    this->cpu_->copy_from_host(labels.data(), label_tensors.cpu);
    this->gpu_->copy_from_host(labels.data(), label_tensors.gpu);
    TensorPair dlogits = this->zeros({rows, classes});
    CrossEntropyTotals cpu_totals;
    CrossEntropyTotals gpu_totals;
    this->cpu_->softmax_cross_entropy(logits.cpu, label_tensors.cpu, 8.0, dlogits.cpu, cpu_totals);
    this->gpu_->softmax_cross_entropy(logits.gpu, label_tensors.gpu, 8.0, dlogits.gpu, gpu_totals);
    this->expect_same(dlogits, "dlogits");
    EXPECT_NEAR(gpu_totals.loss_sum, cpu_totals.loss_sum, 1e-9 * std::abs(cpu_totals.loss_sum));
    EXPECT_EQ(gpu_totals.correct, cpu_totals.correct);
    EXPECT_EQ(gpu_totals.count, cpu_totals.count);
    this->keep_.push_back(label_tensors);
}

TYPED_TEST(CudaParityTest, OptimizerUpdates) {
    const Shape shape{300};
    TensorPair p = this->random(shape);
    TensorPair g = this->random(shape, -50.0, 50.0);
    TensorPair velocity = this->zeros(shape);
    for (int step = 0; step < 3; ++step) {
        this->cpu_->sgd_update(p.cpu, g.cpu, velocity.cpu, SgdSettings{0.05, 0.9, 1e-3}, 0.25,
                               Tensor());
        this->gpu_->sgd_update(p.gpu, g.gpu, velocity.gpu, SgdSettings{0.05, 0.9, 1e-3}, 0.25,
                               Tensor());
    }
    this->expect_same(p, "sgd parameter");
    this->expect_same(velocity, "sgd velocity");
    TensorPair m = this->zeros(shape);
    TensorPair v = this->zeros(shape);
    AdamSettings settings;
    for (std::int64_t step = 1; step <= 3; ++step) {
        settings.step = step;
        this->cpu_->adam_update(p.cpu, g.cpu, m.cpu, v.cpu, settings, 0.5, Tensor());
        this->gpu_->adam_update(p.gpu, g.gpu, m.gpu, v.gpu, settings, 0.5, Tensor());
    }
    this->expect_same(p, "adam parameter");
    this->expect_same(m, "adam first moment");
    this->expect_same(v, "adam second moment");
}

TYPED_TEST(CudaParityTest, FillCopyAndFiniteCheck) {
    TensorPair a = this->random({5, 7});
    TensorPair b = this->zeros({5, 7});
    this->cpu_->copy(a.cpu, b.cpu);
    this->gpu_->copy(a.gpu, b.gpu);
    this->expect_same(b, "copy");
    EXPECT_TRUE(this->gpu_finite(b.gpu));
    this->cpu_->fill(b.cpu, 2.5);
    this->gpu_->fill(b.gpu, 2.5);
    this->expect_same(b, "fill");
    this->gpu_->fill(b.gpu, std::numeric_limits<double>::infinity());
    EXPECT_FALSE(this->gpu_finite(b.gpu));
    std::vector<TypeParam> with_nan(35, TypeParam(1));
    with_nan[17] = std::numeric_limits<TypeParam>::quiet_NaN();
    TensorPair nan = this->upload({35}, with_nan);
    EXPECT_FALSE(this->gpu_finite(nan.gpu));
    EXPECT_EQ(this->gpu_finite(nan.gpu),
              parity::all_finite(*this->cpu_, *this->cpu_tensors_, nan.cpu));
}

using CudaParityF32 = CudaParityTest<float>;

TEST_F(CudaParityF32, RoundStorageIsBitExact) {
    std::vector<float> values(1000);
    std::mt19937 engine(3);
    std::uniform_real_distribution<float> exponent(-30.0f, 20.0f);
    for (float& v : values) {
        v = std::exp2(exponent(engine)) * ((engine() & 1u) != 0u ? -1.0f : 1.0f);
    }
    values[0] = 65519.0f;  // rounds down in fp16
    values[1] = 65520.0f;  // overflows to infinity in fp16
    for (const StorageRounding rounding : {StorageRounding::fp16, StorageRounding::bf16}) {
        TensorPair t = this->upload({1000}, values);
        this->cpu_->round_storage(t.cpu, rounding);
        this->gpu_->round_storage(t.gpu, rounding);
        this->gpu_->synchronize();
        EXPECT_EQ(this->read(*this->gpu_, t.gpu), this->read(*this->cpu_, t.cpu));
    }
}

TEST_F(CudaParityF32, Tf32ConvolutionAndGemmStayWithinTf32Tolerance) {
    this->cpu_->set_math_mode(MathMode::tf32);
    this->gpu_->set_math_mode(MathMode::tf32);
    constexpr double kTf32Tolerance = 5e-3;  // 10-bit mantissa inputs, fp32 accumulation
    TensorPair x = this->random({4, 8, 12, 12});
    TensorPair w = this->random({16, 8, 3, 3});
    TensorPair y = this->zeros({4, 16, 12, 12});
    this->cpu_->conv2d_forward(x.cpu, w.cpu, Tensor(), y.cpu, Conv2dGeometry{1, 1});
    this->gpu_->conv2d_forward(x.gpu, w.gpu, Tensor(), y.gpu, Conv2dGeometry{1, 1});
    this->expect_same(y, "tf32 conv2d_forward", kTf32Tolerance);
    TensorPair a = this->random({64, 96});
    TensorPair b = this->random({96, 32});
    TensorPair c = this->zeros({64, 32});
    this->cpu_->gemm(false, false, 1.0, a.cpu, b.cpu, 0.0, c.cpu);
    this->gpu_->gemm(false, false, 1.0, a.gpu, b.gpu, 0.0, c.gpu);
    this->expect_same(c, "tf32 gemm", kTf32Tolerance);
}

// Pooling and ReLU go through cuDNN's legacy API; the environment says which path ran
// ("own kernels (...)" would mean cuDNN refused fp32, which it must not).
TEST_F(CudaParityF32, EnvironmentSaysPoolingAndReluRanOnCudnn) {
    const Pool2dGeometry g{2, 2, 0};
    TensorPair x = this->random({2, 3, 8, 8});
    TensorPair y = this->zeros({2, 3, 4, 4});
    TensorPair dy = this->random({2, 3, 4, 4});
    TensorPair dx = this->zeros({2, 3, 8, 8});
    this->gpu_->max_pool_forward(x.gpu, y.gpu, g);
    this->gpu_->max_pool_backward(x.gpu, y.gpu, dy.gpu, dx.gpu, g);
    this->gpu_->avg_pool_forward(x.gpu, y.gpu, g);
    this->gpu_->avg_pool_backward(dy.gpu, dx.gpu, g);
    TensorPair r = this->zeros({2, 3, 8, 8});
    this->gpu_->relu_forward(x.gpu, r.gpu);
    this->gpu_->relu_backward(r.gpu, x.gpu, dx.gpu);
    this->gpu_->synchronize();
    const auto env = this->gpu_->environment();
    EXPECT_EQ(env.at("pooling"), "cudnn");
    EXPECT_EQ(env.at("activation"), "cudnn");
    EXPECT_EQ(env.at("cudnn_pooling_modes"),
              "max CUDNN_POOLING_MAX_DETERMINISTIC, average "
              "CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, CUDNN_NOT_PROPAGATE_NAN");
}

TEST_F(CudaParityF32, EnvironmentNamesTheDeviceAndLibraries) {
    const auto env = this->gpu_->environment();
    for (const char* key : {"device_name", "compute_capability", "sm_count", "cuda_driver",
                            "cuda_runtime", "cudnn", "cublas", "allocator_peak_bytes"}) {
        EXPECT_EQ(env.count(key), 1u) << key;
    }
    EXPECT_EQ(env.at("backend"), "cuda");
}

}  // namespace
}  // namespace trainscope::workloads
