// CPU backend forward operations against direct textbook loops, and tf32 math mode.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "workloads/numerics/Rounding.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

using testing::CpuHarness;
using testing::random_values;

std::vector<double> direct_convolution(const std::vector<double>& x, const std::vector<double>& w,
                                       std::int64_t n, std::int64_t c, std::int64_t h,
                                       std::int64_t wd, std::int64_t k, std::int64_t r, int stride,
                                       int pad) {
    const std::int64_t p = conv_output_extent(h, r, stride, pad);
    const std::int64_t q = conv_output_extent(wd, r, stride, pad);
    std::vector<double> y(static_cast<std::size_t>(n * k * p * q), 0.0);
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t o = 0; o < k; ++o)
            for (std::int64_t a = 0; a < p; ++a)
                for (std::int64_t b = 0; b < q; ++b) {
                    double sum = 0.0;
                    for (std::int64_t ch = 0; ch < c; ++ch)
                        for (std::int64_t u = 0; u < r; ++u)
                            for (std::int64_t v = 0; v < r; ++v) {
                                const std::int64_t ih = a * stride - pad + u;
                                const std::int64_t iw = b * stride - pad + v;
                                if (ih < 0 || ih >= h || iw < 0 || iw >= wd)
                                    continue;
                                sum +=
                                    x[static_cast<std::size_t>(((i * c + ch) * h + ih) * wd + iw)] *
                                    w[static_cast<std::size_t>(((o * c + ch) * r + u) * r + v)];
                            }
                    y[static_cast<std::size_t>(((i * k + o) * p + a) * q + b)] = sum;
                }
    return y;
}

TEST(WorkloadsCpuOps, ConvolutionMatchesDirectLoops) {
    struct Case {
        std::int64_t n, c, h, k, r;
        int stride, pad;
    };
    for (const Case& t :
         {Case{2, 3, 9, 4, 3, 1, 0}, Case{3, 2, 8, 5, 3, 2, 1}, Case{2, 4, 6, 3, 1, 1, 0},
          Case{2, 2, 7, 2, 5, 1, 2}, Case{2, 3, 5, 4, 3, 1, 1}}) {
        CpuHarness h(Precision::fp64, 2);
        const auto xv = random_values(t.n * t.c * t.h * t.h, 1);
        const auto wv = random_values(t.k * t.c * t.r * t.r, 2);
        Tensor x = h.upload(Shape{t.n, t.c, t.h, t.h}, xv);
        Tensor w = h.upload(Shape{t.k, t.c, t.r, t.r}, wv);
        const std::int64_t p = conv_output_extent(t.h, t.r, t.stride, t.pad);
        Tensor y = h.context.make(Shape{t.n, t.k, p, p});
        h.backend.conv2d_forward(x, w, Tensor(), y, Conv2dGeometry{t.stride, t.pad});
        const auto expected =
            direct_convolution(xv, wv, t.n, t.c, t.h, t.h, t.k, t.r, t.stride, t.pad);
        const auto got = h.download(y);
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            ASSERT_NEAR(got[i], expected[i], 1e-12) << "element " << i << " stride " << t.stride;
        }
    }
}

TEST(WorkloadsCpuOps, Tf32MathRoundsConvolutionInputs) {
    CpuHarness h(Precision::fp32, 1);
    // Values that tf32 cannot hold: their products differ from the fp32 ones.
    std::vector<double> xv(16);
    std::vector<double> wv(1);
    for (std::size_t i = 0; i < xv.size(); ++i) {
        xv[i] = 1.0 + static_cast<double>(i + 1) * std::ldexp(1.0, -18);
    }
    wv[0] = 1.0 + std::ldexp(1.0, -15);
    Tensor x = h.upload(Shape{1, 1, 4, 4}, xv);
    Tensor w = h.upload(Shape{1, 1, 1, 1}, wv);
    Tensor y = h.context.make(Shape{1, 1, 4, 4});
    h.backend.set_math_mode(MathMode::tf32);
    h.backend.conv2d_forward(x, w, Tensor(), y, Conv2dGeometry{1, 0});
    const auto tf32 = h.download(y);
    for (std::size_t i = 0; i < xv.size(); ++i) {
        const float expected = numerics::round_to_tf32(static_cast<float>(xv[i])) *
                               numerics::round_to_tf32(static_cast<float>(wv[0]));
        EXPECT_EQ(static_cast<float>(tf32[i]), expected) << i;
        EXPECT_EQ(static_cast<float>(tf32[i]), 1.0f);  // every input rounds to 1 in tf32
    }
    h.backend.set_math_mode(MathMode::native);
    h.backend.conv2d_forward(x, w, Tensor(), y, Conv2dGeometry{1, 0});
    EXPECT_NE(h.download(y)[15], 1.0);
}

TEST(WorkloadsCpuOps, PoolingMatchesDefinitions) {
    CpuHarness h(Precision::fp64, 2);
    const auto xv = random_values(2 * 3 * 6 * 6, 3);
    Tensor x = h.upload(Shape{2, 3, 6, 6}, xv);
    Tensor max = h.context.make(Shape{2, 3, 3, 3});
    Tensor avg = h.context.make(Shape{2, 3, 3, 3});
    Tensor global = h.context.make(Shape{2, 3});
    h.backend.max_pool_forward(x, max, Pool2dGeometry{2, 2, 0});
    h.backend.avg_pool_forward(x, avg, Pool2dGeometry{2, 2, 0});
    h.backend.global_avg_pool_forward(x, global);
    const auto m = h.download(max);
    const auto a = h.download(avg);
    const auto g = h.download(global);
    for (std::size_t plane = 0; plane < 6; ++plane) {
        double total = 0.0;
        for (std::size_t i = 0; i < 3; ++i) {
            for (std::size_t j = 0; j < 3; ++j) {
                const double* base = xv.data() + plane * 36 + 2 * i * 6 + 2 * j;
                const double values[4] = {base[0], base[1], base[6], base[7]};
                EXPECT_EQ(m[plane * 9 + i * 3 + j], *std::max_element(values, values + 4));
                EXPECT_NEAR(a[plane * 9 + i * 3 + j],
                            (values[0] + values[1] + values[2] + values[3]) / 4, 1e-15);
            }
        }
        for (std::size_t i = 0; i < 36; ++i) {
            total += xv[plane * 36 + i];
        }
        EXPECT_NEAR(g[plane], total / 36, 1e-15);
    }
}

TEST(WorkloadsCpuOps, SoftmaxCrossEntropyAndAccuracy) {
    CpuHarness h(Precision::fp64, 1);
    Tensor logits = h.upload(Shape{2, 3}, {1.0, 2.0, 3.0, 0.0, 0.0, 5.0});
    std::vector<std::int32_t> label_values{2, 0};
    Tensor labels = h.tensors.allocate(Shape{2}, DType::i32);
    h.backend.copy_from_host(label_values.data(), labels);
    Tensor dlogits = h.context.make(Shape{2, 3});
    CrossEntropyTotals totals;
    h.backend.softmax_cross_entropy(logits, labels, 8.0, dlogits, totals);
    const double lse0 = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
    const double lse1 = std::log(2.0 + std::exp(5.0));
    EXPECT_NEAR(totals.loss_sum, (lse0 - 3.0) + (lse1 - 0.0), 1e-12);
    EXPECT_EQ(totals.correct, 1);
    EXPECT_EQ(totals.count, 2);
    const auto d = h.download(dlogits);
    EXPECT_NEAR(d[2], 8.0 / 2 * (std::exp(3.0 - lse0) - 1.0), 1e-12);  // scaled by 8 / batch
    EXPECT_NEAR(d[3], 8.0 / 2 * (std::exp(0.0 - lse1) - 1.0), 1e-12);
}

TEST(WorkloadsCpuOps, AdamMatchesThePyTorchUpdate) {
    CpuHarness h(Precision::fp64, 1);
    Tensor p = h.upload(Shape{2}, {1.0, -2.0});
    Tensor g = h.upload(Shape{2}, {0.5, -0.25});
    Tensor m = h.upload(Shape{2}, {0.0, 0.0});
    Tensor v = h.upload(Shape{2}, {0.0, 0.0});
    AdamSettings settings;
    settings.step = 1;
    h.backend.adam_update(p, g, m, v, settings, 1.0, Tensor());
    // First step: m_hat = g, v_hat = g^2, so p -= lr * g / (|g| + eps).
    const auto after = h.download(p);
    EXPECT_NEAR(after[0], 1.0 - 1e-3 * 0.5 / (0.5 + 1e-8), 1e-15);
    EXPECT_NEAR(after[1], -2.0 + 1e-3 * 0.25 / (0.25 + 1e-8), 1e-15);
}

float read_flag(CpuHarness& h, const Tensor& flag) {
    float value = -1.0f;
    h.backend.copy_to_host(flag, &value);
    return value;
}

TEST(WorkloadsCpuOps, OverflowFlagIsSetByInfOrNanAndNeverCleared) {
    CpuHarness h(Precision::fp32, 1);
    Tensor flag = h.tensors.allocate(Shape{1}, DType::f32);
    h.backend.fill(flag, 0.0);
    h.backend.flag_non_finite(h.upload(Shape{3}, {1.0, -65504.0, 1e30}), flag);
    EXPECT_EQ(read_flag(h, flag), 0.0f);
    h.backend.flag_non_finite(h.upload(Shape{3}, {1.0, std::nan(""), 2.0}), flag);
    EXPECT_EQ(read_flag(h, flag), 1.0f);
    // A finite tensor after an overflow leaves the flag set: one flag covers a whole step.
    h.backend.flag_non_finite(h.upload(Shape{2}, {0.0, 0.0}), flag);
    EXPECT_EQ(read_flag(h, flag), 1.0f);
    h.backend.fill(flag, 0.0);
    h.backend.flag_non_finite(h.upload(Shape{2}, {-INFINITY, 0.0}), flag);
    EXPECT_EQ(read_flag(h, flag), 1.0f);
}

TEST(WorkloadsCpuOps, UpdatesGuardedByASetOverflowFlagChangeNothing) {
    CpuHarness h(Precision::fp32, 1);
    Tensor flag = h.tensors.allocate(Shape{1}, DType::f32);
    Tensor p = h.upload(Shape{2}, {1.0, -2.0});
    Tensor g = h.upload(Shape{2}, {0.5, -0.25});
    Tensor velocity = h.upload(Shape{2}, {0.1, 0.2});
    Tensor m = h.upload(Shape{2}, {0.3, 0.4});
    Tensor v = h.upload(Shape{2}, {0.5, 0.6});
    AdamSettings adam;
    const SgdSettings sgd{0.1, 0.9, 0.0};
    h.backend.fill(flag, 1.0);
    h.backend.sgd_update(p, g, velocity, sgd, 1.0, flag);
    h.backend.adam_update(p, g, m, v, adam, 1.0, flag);
    EXPECT_EQ(h.download(p), (std::vector<double>{1.0, -2.0}));
    EXPECT_EQ(h.download(velocity), (std::vector<double>{0.1f, 0.2f}));
    EXPECT_EQ(h.download(m), (std::vector<double>{0.3f, 0.4f}));
    EXPECT_EQ(h.download(v), (std::vector<double>{0.5f, 0.6f}));
    // A clear flag applies the update like no flag at all.
    h.backend.fill(flag, 0.0);
    h.backend.sgd_update(p, g, velocity, sgd, 1.0, flag);
    Tensor p2 = h.upload(Shape{2}, {1.0, -2.0});
    Tensor velocity2 = h.upload(Shape{2}, {0.1, 0.2});
    h.backend.sgd_update(p2, g, velocity2, sgd, 1.0, Tensor());
    EXPECT_EQ(h.download(p), h.download(p2));
    EXPECT_NE(h.download(p), (std::vector<double>{1.0, -2.0}));
}

TEST(WorkloadsCpuOps, AnOverflowFlagThatIsNotOneF32ElementIsRefused) {
    CpuHarness h(Precision::fp32, 1);
    Tensor wide = h.tensors.allocate(Shape{2}, DType::f32);
    Tensor x = h.upload(Shape{2}, {1.0, 2.0});
    EXPECT_THROW(h.backend.flag_non_finite(x, wide), std::exception);
    Tensor p = h.upload(Shape{2}, {1.0, -2.0});
    Tensor velocity = h.upload(Shape{2}, {0.0, 0.0});
    EXPECT_THROW(h.backend.sgd_update(p, x, velocity, SgdSettings{0.1, 0.0, 0.0}, 1.0, wide),
                 std::exception);
}

}  // namespace
}  // namespace trainscope::workloads
