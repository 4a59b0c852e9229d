// The CUDA kernels' per-element math, run on the host, against the CPU backend: the
// same functions compile into the kernels, so agreement here is agreement of the math.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <ostream>
#include <random>
#include <vector>

#include "workloads/backends/cpu/CpuBackend.hpp"
#include "workloads/backends/cuda/kernels/ElementwiseMath.hpp"
#include "workloads/backends/cuda/kernels/GatherMath.hpp"
#include "workloads/backends/cuda/kernels/LossMath.hpp"
#include "workloads/backends/cuda/kernels/OptimizerMath.hpp"
#include "workloads/backends/cuda/kernels/PoolingMath.hpp"
#include "workloads/memory/TensorAllocator.hpp"

namespace trainscope::workloads::cuda {
namespace {

class KernelMathTest : public testing::Test {
  protected:
    Tensor tensor(const Shape& shape, const std::vector<float>& values) {
        Tensor t = tensors_.allocate(shape, DType::f32);
        backend_.copy_from_host(values.data(), t);
        return t;
    }
    Tensor zeros(const Shape& shape) {
        Tensor t = tensors_.allocate(shape, DType::f32);
        backend_.fill(t, 0.0);
        return t;
    }
    static std::vector<float> read(const Tensor& t) {
        const float* data = t.data<float>();
        return {data, data + t.elements()};
    }
    std::vector<float> random_values(std::size_t count, float low, float high) {
        std::uniform_real_distribution<float> distribution(low, high);
        std::vector<float> values(count);
        for (float& v : values) {
            v = distribution(engine_);
        }
        return values;
    }

    CpuBackend backend_{1};
    TensorAllocator tensors_{backend_.raw_allocator()};
    std::mt19937 engine_{7};
};

TEST_F(KernelMathTest, ReluForwardAndBackwardMatchTheCpuBackend) {
    const std::vector<float> x = {-2.0f, -0.0f, 0.0f, 0.5f, 3.0f, -1e-30f};
    const std::vector<float> dy = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
    Tensor xt = tensor({6}, x);
    Tensor yt = zeros({6});
    Tensor dxt = zeros({6});
    backend_.relu_forward(xt, yt);
    backend_.relu_backward(yt, tensor({6}, dy), dxt);
    const std::vector<float> y = read(yt);
    const std::vector<float> dx = read(dxt);
    for (std::size_t i = 0; i < x.size(); ++i) {
        EXPECT_EQ(math::relu(x[i]), y[i]) << i;
        EXPECT_EQ(math::relu_gradient(y[i], dy[i]), dx[i]) << i;
    }
}

struct PoolCase {
    int window, stride, padding;
};

void PrintTo(const PoolCase& c, std::ostream* out) {
    *out << "window" << c.window << "_stride" << c.stride << "_padding" << c.padding;
}

class PoolingMathTest : public KernelMathTest, public testing::WithParamInterface<PoolCase> {};

TEST_P(PoolingMathTest, MaxAndAveragePoolingMatchTheCpuBackend) {
    const PoolCase c = GetParam();
    const std::int64_t n = 2, ch = 3, h = 7, w = 6;
    const std::int64_t p = conv_output_extent(h, c.window, c.stride, c.padding);
    const std::int64_t q = conv_output_extent(w, c.window, c.stride, c.padding);
    // Values on a coarse grid so windows hold ties: the gradient must go to the first.
    std::vector<float> x = random_values(static_cast<std::size_t>(n * ch * h * w), 0.0f, 4.0f);
    for (float& v : x) {
        v = std::floor(v);
    }
    const std::vector<float> dy = random_values(static_cast<std::size_t>(n * ch * p * q), -1, 1);
    const Pool2dGeometry geometry{c.window, c.stride, c.padding};
    Tensor xt = tensor({n, ch, h, w}, x);
    Tensor dyt = tensor({n, ch, p, q}, dy);
    Tensor max_y = zeros({n, ch, p, q});
    Tensor avg_y = zeros({n, ch, p, q});
    Tensor max_dx = zeros({n, ch, h, w});
    Tensor avg_dx = zeros({n, ch, h, w});
    backend_.max_pool_forward(xt, max_y, geometry);
    backend_.avg_pool_forward(xt, avg_y, geometry);
    backend_.max_pool_backward(xt, max_y, dyt, max_dx, geometry);
    backend_.avg_pool_backward(dyt, avg_dx, geometry);
    const std::vector<float> cpu_max = read(max_y);
    const std::vector<float> cpu_avg = read(avg_y);
    const std::vector<float> cpu_max_dx = read(max_dx);
    const std::vector<float> cpu_avg_dx = read(avg_dx);

    const math::PoolPlane d{h, w, p, q, c.window, c.stride, c.padding};
    for (std::int64_t plane = 0; plane < n * ch; ++plane) {
        const float* x_plane = x.data() + plane * h * w;
        const float* dy_plane = dy.data() + plane * p * q;
        for (std::int64_t o = 0; o < p * q; ++o) {
            const std::size_t at = static_cast<std::size_t>(plane * p * q + o);
            EXPECT_EQ(math::max_pool_output(d, x_plane, o / q, o % q), cpu_max[at]);
            EXPECT_EQ(math::avg_pool_output(d, x_plane, o / q, o % q), cpu_avg[at]);
        }
        for (std::int64_t e = 0; e < h * w; ++e) {
            const std::size_t at = static_cast<std::size_t>(plane * h * w + e);
            EXPECT_EQ(math::max_pool_input_gradient(d, x_plane, dy_plane, e / w, e % w),
                      cpu_max_dx[at])
                << "plane " << plane << " element " << e;
            EXPECT_FLOAT_EQ(math::avg_pool_input_gradient(d, dy_plane, e / w, e % w),
                            cpu_avg_dx[at])
                << "plane " << plane << " element " << e;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Windows, PoolingMathTest,
                         testing::Values(PoolCase{2, 2, 0}, PoolCase{3, 2, 1}, PoolCase{3, 1, 1},
                                         PoolCase{2, 1, 0}, PoolCase{3, 3, 0}));

TEST_F(KernelMathTest, SoftmaxCrossEntropyRowsSumToTheCpuTotals) {
    const std::int64_t rows = 5, classes = 7;
    const std::vector<float> logits =
        random_values(static_cast<std::size_t>(rows * classes), -6.0f, 6.0f);
    std::vector<std::int32_t> labels = {0, 6, 3, 3, 1};
    Tensor logits_t = tensor({rows, classes}, logits);
    Tensor labels_t = tensors_.allocate({rows}, DType::i32);
    backend_.copy_from_host(labels.data(), labels_t);
    Tensor dlogits_t = zeros({rows, classes});
    const double loss_scale = 128.0;
    CrossEntropyTotals cpu;
    backend_.softmax_cross_entropy(logits_t, labels_t, loss_scale, dlogits_t, cpu);
    const std::vector<float> cpu_gradient = read(dlogits_t);

    std::vector<float> gradient(logits.size());
    double loss_sum = 0.0;
    std::int64_t correct = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
        const math::CrossEntropyRow row = math::softmax_cross_entropy_row(
            logits.data() + r * classes, classes, labels[static_cast<std::size_t>(r)],
            loss_scale / static_cast<double>(rows), gradient.data() + r * classes);
        loss_sum += row.loss;
        correct += row.correct;
    }
    EXPECT_DOUBLE_EQ(loss_sum, cpu.loss_sum);
    EXPECT_EQ(correct, cpu.correct);
    EXPECT_EQ(cpu.count, rows);
    for (std::size_t i = 0; i < gradient.size(); ++i) {
        EXPECT_EQ(gradient[i], cpu_gradient[i]) << i;
    }
}

TEST_F(KernelMathTest, SgdStepMatchesTheCpuBackend) {
    const std::size_t count = 257;
    std::vector<float> parameter = random_values(count, -1, 1);
    const std::vector<float> gradient = random_values(count, -100, 100);
    std::vector<float> velocity = random_values(count, -1, 1);
    Tensor p = tensor({static_cast<std::int64_t>(count)}, parameter);
    Tensor g = tensor({static_cast<std::int64_t>(count)}, gradient);
    Tensor v = tensor({static_cast<std::int64_t>(count)}, velocity);
    const SgdSettings settings{0.05, 0.9, 1e-4};
    const double grad_factor = 1.0 / 64.0;
    backend_.sgd_update(p, g, v, settings, grad_factor, Tensor());
    const auto constants = math::sgd_constants<float>(settings, grad_factor);
    const std::vector<float> cpu_p = read(p);
    const std::vector<float> cpu_v = read(v);
    for (std::size_t i = 0; i < count; ++i) {
        math::sgd_step(constants, parameter[i], gradient[i], velocity[i]);
        EXPECT_FLOAT_EQ(parameter[i], cpu_p[i]) << i;
        EXPECT_FLOAT_EQ(velocity[i], cpu_v[i]) << i;
    }
}

TEST_F(KernelMathTest, AdamStepMatchesTheCpuBackendOverSeveralSteps) {
    const std::size_t count = 129;
    std::vector<float> parameter = random_values(count, -1, 1);
    std::vector<float> first(count, 0.0f);
    std::vector<float> second(count, 0.0f);
    Tensor p = tensor({static_cast<std::int64_t>(count)}, parameter);
    Tensor m = zeros({static_cast<std::int64_t>(count)});
    Tensor v = zeros({static_cast<std::int64_t>(count)});
    AdamSettings settings;
    for (std::int64_t step = 1; step <= 3; ++step) {
        settings.step = step;
        const std::vector<float> gradient = random_values(count, -1, 1);
        backend_.adam_update(p, tensor({static_cast<std::int64_t>(count)}, gradient), m, v,
                             settings, 1.0, Tensor());
        const auto constants = math::adam_constants<float>(settings, 1.0);
        for (std::size_t i = 0; i < count; ++i) {
            math::adam_step(constants, parameter[i], gradient[i], first[i], second[i]);
        }
    }
    const std::vector<float> cpu_p = read(p);
    const std::vector<float> cpu_m = read(m);
    const std::vector<float> cpu_v = read(v);
    for (std::size_t i = 0; i < count; ++i) {
        EXPECT_FLOAT_EQ(parameter[i], cpu_p[i]) << i;
        EXPECT_FLOAT_EQ(first[i], cpu_m[i]) << i;
        EXPECT_FLOAT_EQ(second[i], cpu_v[i]) << i;
    }
}

TEST_F(KernelMathTest, AdamBiasCorrectionUsesTheStep) {
    AdamSettings settings;
    settings.learning_rate = 0.1;
    settings.step = 1;
    const auto first = math::adam_constants<double>(settings, 1.0);
    EXPECT_DOUBLE_EQ(first.step_size, 0.1 / (1.0 - 0.9));
    EXPECT_DOUBLE_EQ(first.correction2_sqrt, std::sqrt(1.0 - 0.999));
    settings.step = 10;
    const auto tenth = math::adam_constants<double>(settings, 0.5);
    EXPECT_DOUBLE_EQ(tenth.step_size, 0.1 / (1.0 - std::pow(0.9, 10.0)));
    EXPECT_DOUBLE_EQ(tenth.grad_factor, 0.5);
}

// The gather kernel's word walk, run on the host, against the CPU backend's gather_rows:
// rows of 3 floats (12 bytes: 4-byte words), with a repeated and a reversed row.
TEST_F(KernelMathTest, GatherWordWalkMatchesTheCpuBackend) {
    const std::vector<float> values = random_values(5 * 3, -1.0f, 1.0f);
    const Tensor source = tensor(Shape{5, 3}, values);
    const std::vector<std::int32_t> rows{4, 0, 4, 2};
    Tensor indices = tensors_.allocate(Shape{4}, DType::i32);
    backend_.copy_from_host(rows.data(), indices);
    Tensor expected = zeros(Shape{4, 3});
    backend_.gather_rows(source, indices, expected);

    const long long row_bytes = 3 * sizeof(float);
    ASSERT_EQ(math::gather_word_bytes(row_bytes), 4);
    const long long row_words = row_bytes / 4;
    std::vector<float> actual(rows.size() * 3);
    for (long long i = 0; i < static_cast<long long>(actual.size()); ++i) {
        actual[static_cast<std::size_t>(i)] =
            values[static_cast<std::size_t>(math::gather_source_word(i, row_words, rows.data()))];
    }
    EXPECT_EQ(actual, read(expected));
}

TEST_F(KernelMathTest, GatherUsesTheWidestWordThatDividesARow) {
    EXPECT_EQ(math::gather_word_bytes(784 * 4), 8);
    EXPECT_EQ(math::gather_word_bytes(100), 4);
    EXPECT_EQ(math::gather_word_bytes(6), 2);
    EXPECT_EQ(math::gather_word_bytes(3), 1);
}

}  // namespace
}  // namespace trainscope::workloads::cuda
