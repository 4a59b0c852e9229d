// The per-channel and per-element math of the own bf16 batch-norm kernels
// (kernels/BatchNormMath.hpp), run on the host: a hand-computed channel, a
// double-precision reference, the running-statistics rule, the backward formula against
// finite differences, and the CPU backend's batch norm on the same (bf16-valued) inputs.
// The host functions below reduce each channel in exactly the kernels' order
// (ChannelReductionMath.hpp: slices of a channel, each thread's elements in turn, the
// block's tree, the warp's ordered sum of the slices) with the same math functions; the
// device may fuse a float product and sum into one FMA, so it agrees in order, not
// always in the last bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "workloads/backends/cpu/CpuBackend.hpp"
#include "workloads/backends/cuda/kernels/BatchNormMath.hpp"
#include "workloads/backends/cuda/kernels/ChannelReductionMath.hpp"
#include "workloads/backends/cuda/kernels/StorageMath.hpp"
#include "workloads/memory/TensorAllocator.hpp"

namespace trainscope::workloads::cuda {
namespace {

struct Dims {
    std::int64_t n, c, area;
    std::int64_t per_channel() const { return n * area; }
    std::int64_t elements() const { return n * c * area; }
};

// Offset of the k-th element of channel ch in an NCHW tensor [n, channels, area] (the
// kernels walk it with ChannelReductionMath.hpp's additions; ChannelReductionMath.* checks
// that walk against this division).
long long nchw_offset(long long k, long long ch, long long channels, long long area) {
    return ((k / area) * channels + ch) * area + k % area;
}

struct ForwardResult {
    std::vector<float> y, saved_mean, saved_inv_std, running_mean, running_var;
};

struct BackwardResult {
    std::vector<float> dx, dgamma, dbeta;
};

// A channel's two statistics sums as the kernels form them: per slice the sum and the
// squared deviations about the slice's mean (the statistics kernel), then the slices'
// sums in the warp's order and the squares recentred on the channel's float mean (the
// finalize kernel).
struct ForwardSums {
    float sum, squares;
};

math::ChannelWalk<std::uint64_t> walk(const Dims& d) {
    return math::slice_walk<std::uint64_t>(d.n, d.c, d.area);
}

ForwardSums forward_sums(const Dims& d, const std::vector<float>& x, std::int64_t ch) {
    const auto w = walk(d);
    const auto channel = static_cast<std::uint64_t>(ch);
    const long long slices = math::channel_slice_count(d.per_channel());
    std::vector<float> sums;
    std::vector<float> squares;
    for (long long s = 0; s < slices; ++s) {
        sums.push_back(
            math::slice_sum<float>(w, s, channel, [&](std::uint64_t i) { return x[i]; }));
        const float mean = math::batch_norm_slice_mean(
            sums.back(), math::channel_slice_elements(d.per_channel(), s));
        squares.push_back(math::slice_sum<float>(w, s, channel, [&](std::uint64_t i) {
            return math::batch_norm_centered_square(x[i], mean);
        }));
    }
    const auto at = [](const std::vector<float>& v, long long s) {
        return v[static_cast<std::size_t>(s)];
    };
    const float sum =
        math::lane_ordered_sum<float>(slices, [&](long long s) { return at(sums, s); });
    const float centre =
        static_cast<float>(math::batch_norm_mean(sum, static_cast<double>(d.per_channel())));
    const float total_squares = math::lane_ordered_sum<float>(slices, [&](long long s) {
        const long long elements = math::channel_slice_elements(d.per_channel(), s);
        return math::batch_norm_recentred_squares(
            at(squares, s), elements, math::batch_norm_slice_mean(at(sums, s), elements), centre);
    });
    return {sum, total_squares};
}

// The forward-training kernels' steps on the host, with their math functions.
ForwardResult host_forward_training(const Dims& d, const std::vector<float>& x,
                                    const std::vector<float>& gamma, const std::vector<float>& beta,
                                    std::vector<float> running_mean, std::vector<float> running_var,
                                    const BatchNormSettings& settings) {
    ForwardResult r;
    r.y.resize(x.size());
    const double count = static_cast<double>(d.per_channel());
    for (std::int64_t ch = 0; ch < d.c; ++ch) {
        const ForwardSums sums = forward_sums(d, x, ch);
        const float centre = static_cast<float>(math::batch_norm_mean(sums.sum, count));
        const math::BatchNormBatchStats stats =
            math::batch_norm_finalize(sums.sum, sums.squares, count, settings.epsilon);
        const auto c = static_cast<std::size_t>(ch);
        r.saved_mean.push_back(centre);
        r.saved_inv_std.push_back(static_cast<float>(stats.inv_std));
        running_mean[c] = math::batch_norm_blend(running_mean[c], stats.mean, settings.momentum);
        running_var[c] = math::batch_norm_blend(
            running_var[c], math::batch_norm_unbiased_variance(stats.variance, count),
            settings.momentum);
        const math::BatchNormAffine affine =
            math::batch_norm_affine(gamma[c], beta[c], stats.mean, stats.inv_std);
        for (std::int64_t k = 0; k < d.per_channel(); ++k) {
            const auto i = static_cast<std::size_t>(nchw_offset(k, ch, d.c, d.area));
            r.y[i] = math::batch_norm_normalize(x[i], affine);
        }
    }
    r.running_mean = running_mean;
    r.running_var = running_var;
    return r;
}

std::vector<float> host_forward_inference(const Dims& d, const std::vector<float>& x,
                                          const std::vector<float>& gamma,
                                          const std::vector<float>& beta,
                                          const std::vector<float>& running_mean,
                                          const std::vector<float>& running_var, double epsilon) {
    std::vector<float> y(x.size());
    for (std::int64_t ch = 0; ch < d.c; ++ch) {
        const auto c = static_cast<std::size_t>(ch);
        const math::BatchNormAffine affine = math::batch_norm_affine(
            gamma[c], beta[c], running_mean[c], math::batch_norm_inv_std(running_var[c], epsilon));
        for (std::int64_t k = 0; k < d.per_channel(); ++k) {
            const auto i = static_cast<std::size_t>(nchw_offset(k, ch, d.c, d.area));
            y[i] = math::batch_norm_normalize(x[i], affine);
        }
    }
    return y;
}

BackwardResult host_backward(const Dims& d, const std::vector<float>& x,
                             const std::vector<float>& dy, const std::vector<float>& gamma,
                             const std::vector<float>& saved_mean,
                             const std::vector<float>& saved_inv_std) {
    BackwardResult r;
    r.dx.resize(x.size());
    for (std::int64_t ch = 0; ch < d.c; ++ch) {
        const auto c = static_cast<std::size_t>(ch);
        const auto channel = static_cast<std::uint64_t>(ch);
        const float sum_dy =
            math::channel_sum<float>(walk(d), channel, [&](std::uint64_t i) { return dy[i]; });
        const float sum_dy_centered =
            math::channel_sum<float>(walk(d), channel, [&](std::uint64_t i) {
                return math::batch_norm_centered_product(dy[i], x[i], saved_mean[c]);
            });
        const math::BatchNormBackwardCoefficients coefficients =
            math::batch_norm_backward_coefficients(gamma[c], saved_mean[c], saved_inv_std[c],
                                                   sum_dy, sum_dy_centered,
                                                   static_cast<double>(d.per_channel()));
        r.dgamma.push_back(coefficients.dgamma);
        r.dbeta.push_back(coefficients.dbeta);
        for (std::int64_t k = 0; k < d.per_channel(); ++k) {
            const auto i = static_cast<std::size_t>(nchw_offset(k, ch, d.c, d.area));
            r.dx[i] = math::batch_norm_input_gradient(dy[i], x[i], coefficients);
        }
    }
    return r;
}

// Straightforward double-precision batch norm of one channel's values.
struct ReferenceChannel {
    double mean, variance, inv_std;
};

ReferenceChannel reference_channel(const Dims& d, const std::vector<double>& x, std::int64_t ch,
                                   double epsilon) {
    double sum = 0.0;
    for (std::int64_t i = 0; i < d.n; ++i) {
        for (std::int64_t j = 0; j < d.area; ++j) {
            sum += x[static_cast<std::size_t>((i * d.c + ch) * d.area + j)];
        }
    }
    const double mean = sum / static_cast<double>(d.per_channel());
    double squares = 0.0;
    for (std::int64_t i = 0; i < d.n; ++i) {
        for (std::int64_t j = 0; j < d.area; ++j) {
            const double centered = x[static_cast<std::size_t>((i * d.c + ch) * d.area + j)] - mean;
            squares += centered * centered;
        }
    }
    const double variance = squares / static_cast<double>(d.per_channel());
    return {mean, variance, 1.0 / std::sqrt(variance + epsilon)};
}

std::vector<double> reference_forward(const Dims& d, const std::vector<double>& x,
                                      const std::vector<float>& gamma,
                                      const std::vector<float>& beta, double epsilon) {
    std::vector<double> y(x.size());
    for (std::int64_t ch = 0; ch < d.c; ++ch) {
        const ReferenceChannel s = reference_channel(d, x, ch, epsilon);
        const auto c = static_cast<std::size_t>(ch);
        for (std::int64_t i = 0; i < d.n; ++i) {
            for (std::int64_t j = 0; j < d.area; ++j) {
                const auto e = static_cast<std::size_t>((i * d.c + ch) * d.area + j);
                y[e] = gamma[c] * (x[e] - s.mean) * s.inv_std + beta[c];
            }
        }
    }
    return y;
}

template <typename A, typename B>
double relative_error(const std::vector<A>& actual, const std::vector<B>& expected) {
    double difference = 0.0;
    double scale = 0.0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        difference = std::max(difference, std::abs(static_cast<double>(actual[i]) -
                                                   static_cast<double>(expected[i])));
        scale = std::max(scale, std::abs(static_cast<double>(expected[i])));
    }
    return difference / std::max(scale, 1e-30);
}

std::vector<double> widened(const std::vector<float>& values) {
    return {values.begin(), values.end()};
}

// Values rounded to bf16, as a bf16 tensor holds them.
std::vector<float> bf16_values(std::size_t count, double low, double high, std::mt19937& engine) {
    std::uniform_real_distribution<double> distribution(low, high);
    std::vector<float> values(count);
    for (float& v : values) {
        v = math::load(math::store<math::Bf16>(static_cast<float>(distribution(engine))));
    }
    return values;
}

TEST(BatchNormMath, HandComputedChannel) {
    // One channel, [2, 1, 2, 2] = 1..8: mean 4.5, squared deviations 42, biased variance
    // 42 / 8 = 5.25, unbiased 42 / 7 = 6.
    const Dims d{2, 1, 4};
    const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8};
    const BatchNormSettings settings{0.1, 1e-5};
    const ForwardResult r = host_forward_training(d, x, {2.0f}, {0.5f}, {0.0f}, {1.0f}, settings);
    EXPECT_EQ(r.saved_mean[0], 4.5f);
    const double inv_std = 1.0 / std::sqrt(5.25 + 1e-5);
    EXPECT_EQ(r.saved_inv_std[0], static_cast<float>(inv_std));
    // running = 0.9 * running + 0.1 * batch: mean 0.45, variance 0.9 + 0.6 = 1.5.
    EXPECT_FLOAT_EQ(r.running_mean[0], 0.45f);
    EXPECT_FLOAT_EQ(r.running_var[0], 1.5f);
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double expected = 2.0 * (x[i] - 4.5) * inv_std + 0.5;
        EXPECT_NEAR(r.y[i], expected, 1e-6) << i;
    }
    // dy = 1 everywhere: dbeta = 8, dgamma = sum(xhat) = 0, dx = 0 (a constant shift of
    // y has no gradient with respect to x through batch statistics).
    const BackwardResult b =
        host_backward(d, x, std::vector<float>(8, 1.0f), {2.0f}, r.saved_mean, r.saved_inv_std);
    EXPECT_EQ(b.dbeta[0], 8.0f);
    EXPECT_NEAR(b.dgamma[0], 0.0f, 1e-6);
    for (const float g : b.dx) {
        EXPECT_NEAR(g, 0.0f, 1e-6);
    }
    // dy = x: dgamma = sum(x * xhat) = sum((x - mean) * xhat) = 42 * inv_std.
    const BackwardResult bx = host_backward(d, x, x, {2.0f}, r.saved_mean, r.saved_inv_std);
    EXPECT_NEAR(bx.dgamma[0], 42.0 * inv_std, 1e-5);
    EXPECT_EQ(bx.dbeta[0], 36.0f);
}

TEST(BatchNormMath, RunningStatisticsFollowPyTorchsRule) {
    // momentum weighs the batch; the variance blended is the unbiased one.
    EXPECT_FLOAT_EQ(math::batch_norm_blend(2.0f, 4.0, 0.1), 2.2f);
    EXPECT_FLOAT_EQ(math::batch_norm_blend(2.0f, 4.0, 1.0), 4.0f);
    EXPECT_FLOAT_EQ(math::batch_norm_blend(2.0f, 4.0, 0.0), 2.0f);
    EXPECT_DOUBLE_EQ(math::batch_norm_unbiased_variance(5.25, 8.0), 6.0);
    // One element per channel: no unbiased estimate, the biased (0) one is kept.
    EXPECT_DOUBLE_EQ(math::batch_norm_unbiased_variance(0.0, 1.0), 0.0);
    const math::BatchNormBatchStats s = math::batch_norm_finalize(6.0, 8.0, 4.0, 0.0);
    EXPECT_DOUBLE_EQ(s.mean, 1.5);
    EXPECT_DOUBLE_EQ(s.variance, 2.0);
    EXPECT_DOUBLE_EQ(s.inv_std, 1.0 / std::sqrt(2.0));
}

TEST(BatchNormMath, ForwardMatchesADoublePrecisionReference) {
    std::mt19937 engine(11);
    const Dims d{6, 4, 7 * 5};
    const std::vector<float> x = bf16_values(static_cast<std::size_t>(d.elements()), -2, 3, engine);
    const std::vector<float> gamma = {0.5f, 1.25f, -0.75f, 2.0f};
    const std::vector<float> beta = {0.0f, -1.0f, 0.25f, 3.0f};
    const BatchNormSettings settings;
    const ForwardResult r = host_forward_training(d, x, gamma, beta, std::vector<float>(4, 0.0f),
                                                  std::vector<float>(4, 1.0f), settings);
    const std::vector<double> xd = widened(x);
    EXPECT_LT(relative_error(r.y, reference_forward(d, xd, gamma, beta, settings.epsilon)), 2e-6);
    for (std::int64_t ch = 0; ch < d.c; ++ch) {
        const ReferenceChannel s = reference_channel(d, xd, ch, settings.epsilon);
        const auto c = static_cast<std::size_t>(ch);
        EXPECT_NEAR(r.saved_mean[c], s.mean, 1e-6 * (1.0 + std::abs(s.mean))) << ch;
        EXPECT_NEAR(r.saved_inv_std[c], s.inv_std, 1e-5 * s.inv_std) << ch;
        const double count = static_cast<double>(d.per_channel());
        EXPECT_NEAR(r.running_mean[c], 0.1 * s.mean, 1e-6) << ch;
        EXPECT_NEAR(r.running_var[c], 0.9 + 0.1 * s.variance * count / (count - 1.0), 1e-5) << ch;
    }
    // Inference with the batch's own statistics as running ones is the training output.
    std::vector<float> mean(4);
    std::vector<float> variance(4);
    for (std::int64_t ch = 0; ch < d.c; ++ch) {
        const ReferenceChannel s = reference_channel(d, xd, ch, settings.epsilon);
        mean[static_cast<std::size_t>(ch)] = static_cast<float>(s.mean);
        variance[static_cast<std::size_t>(ch)] = static_cast<float>(s.variance);
    }
    EXPECT_LT(
        relative_error(host_forward_inference(d, x, gamma, beta, mean, variance, settings.epsilon),
                       reference_forward(d, xd, gamma, beta, settings.epsilon)),
        2e-6);
}

TEST(BatchNormMath, SlicesRecentredOnTheChannelMeanGiveItsSquares) {
    // Slices {1, 2} and {3, 4}: 0.5 about their own means 1.5 and 3.5; about the channel's
    // 2.5 each is 0.5 + 2 * 1^2 = 2.5, and 5 = 2.25 + 0.25 + 0.25 + 2.25.
    EXPECT_EQ(math::batch_norm_slice_mean(3.0f, 2), 1.5f);
    EXPECT_EQ(math::batch_norm_recentred_squares(0.5f, 2, 1.5f, 2.5f), 2.5f);
    EXPECT_EQ(math::batch_norm_recentred_squares(0.5f, 2, 3.5f, 2.5f), 2.5f);
    EXPECT_EQ(math::batch_norm_slice_mean(0.0f, 0), 0.0f);  // an empty channel's one slice
}

TEST(BatchNormMath, ManySlicesAndAFarMeanKeepTheStatisticsAccurate) {
    // 35 slices a channel, values 50 +- 2 (bf16): the squares are taken about each
    // slice's mean, so the large mean costs no precision.
    std::mt19937 engine(23);
    const Dims d{64, 2, 1100};
    const std::vector<float> x =
        bf16_values(static_cast<std::size_t>(d.elements()), 48, 52, engine);
    const BatchNormSettings settings{0.1, 1e-5};
    const ForwardResult r = host_forward_training(d, x, {1.0f, 1.0f}, {0.0f, 0.0f}, {0.0f, 0.0f},
                                                  {1.0f, 1.0f}, settings);
    const std::vector<double> xd = widened(x);
    const double count = static_cast<double>(d.per_channel());
    for (std::int64_t ch = 0; ch < d.c; ++ch) {
        const ReferenceChannel s = reference_channel(d, xd, ch, settings.epsilon);
        const auto c = static_cast<std::size_t>(ch);
        EXPECT_NEAR(r.saved_mean[c], s.mean, 1e-6 * s.mean) << ch;
        EXPECT_NEAR(r.saved_inv_std[c], s.inv_std, 1e-5 * s.inv_std) << ch;
        EXPECT_NEAR(r.running_var[c], 0.9 + 0.1 * s.variance * count / (count - 1.0), 1e-5) << ch;
    }
    // The same shape reduces in the same order: the same bits again.
    const ForwardResult again = host_forward_training(d, x, {1.0f, 1.0f}, {0.0f, 0.0f},
                                                      {0.0f, 0.0f}, {1.0f, 1.0f}, settings);
    EXPECT_EQ(again.saved_mean, r.saved_mean);
    EXPECT_EQ(again.saved_inv_std, r.saved_inv_std);
    EXPECT_EQ(again.y, r.y);
}

TEST(BatchNormMath, BackwardMatchesFiniteDifferences) {
    // L = sum(w * y(x)) with fixed w: dL/dx from the coefficients against central
    // differences of the double reference, and dgamma / dbeta against theirs.
    std::mt19937 engine(5);
    const Dims d{3, 2, 4};
    const std::vector<float> x = bf16_values(static_cast<std::size_t>(d.elements()), -1, 2, engine);
    const std::vector<float> w = bf16_values(static_cast<std::size_t>(d.elements()), -1, 1, engine);
    std::vector<float> gamma = {1.5f, -0.5f};
    std::vector<float> beta = {0.25f, 1.0f};
    const double eps = 1e-5;
    auto loss = [&](const std::vector<double>& xs, const std::vector<float>& g,
                    const std::vector<float>& b) {
        const std::vector<double> y = reference_forward(d, xs, g, b, eps);
        double total = 0.0;
        for (std::size_t i = 0; i < y.size(); ++i) {
            total += w[i] * y[i];
        }
        return total;
    };
    const ForwardResult f = host_forward_training(d, x, gamma, beta, std::vector<float>(2, 0.0f),
                                                  std::vector<float>(2, 1.0f), {0.1, eps});
    const BackwardResult b = host_backward(d, x, w, gamma, f.saved_mean, f.saved_inv_std);

    const double h = 1e-4;
    std::vector<double> numeric_dx(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        std::vector<double> plus = widened(x);
        std::vector<double> minus = widened(x);
        plus[i] += h;
        minus[i] -= h;
        numeric_dx[i] = (loss(plus, gamma, beta) - loss(minus, gamma, beta)) / (2 * h);
    }
    EXPECT_LT(relative_error(b.dx, numeric_dx), 1e-4);
    for (std::size_t c = 0; c < 2; ++c) {
        // L is linear in gamma and beta: a unit step is exact.
        std::vector<float> g1 = gamma;
        g1[c] += 1.0f;
        std::vector<float> b1 = beta;
        b1[c] += 1.0f;
        const double base = loss(widened(x), gamma, beta);
        EXPECT_NEAR(b.dgamma[c], loss(widened(x), g1, beta) - base, 1e-4) << c;
        EXPECT_NEAR(b.dbeta[c], loss(widened(x), gamma, b1) - base, 1e-4) << c;
    }
}

// The CPU backend's batch norm is the reference of the CUDA parity tests; here it runs
// on the same bf16-valued inputs as the kernels' math (both in float, summed in a
// different order: the CPU backend per plane with eight partial sums, then in double).
class BatchNormMathAgainstCpu : public testing::Test {
  protected:
    Tensor tensor(const Shape& shape, const std::vector<float>& values) {
        Tensor t = tensors_.allocate(shape, DType::f32);
        backend_.copy_from_host(values.data(), t);
        return t;
    }
    static std::vector<float> read(const Tensor& t) {
        const float* data = t.data<float>();
        return {data, data + t.elements()};
    }
    static std::vector<float> rounded_to_bf16(std::vector<float> values) {
        for (float& v : values) {
            v = math::load(math::store<math::Bf16>(v));
        }
        return values;
    }

    CpuBackend backend_{1};
    TensorAllocator tensors_{backend_.raw_allocator()};
    std::mt19937 engine_{19};
};

TEST_F(BatchNormMathAgainstCpu, TrainingInferenceAndBackwardAgree) {
    // The last: two slices a channel.
    for (const Dims d : {Dims{8, 3, 9 * 7}, Dims{16, 5, 1}, Dims{40, 3, 9 * 7}}) {
        const Shape shape = d.area == 1 ? Shape{d.n, d.c} : Shape{d.n, d.c, 9, 7};
        const auto count = static_cast<std::size_t>(d.elements());
        const auto channels = static_cast<std::size_t>(d.c);
        const std::vector<float> x = bf16_values(count, -2, 3, engine_);
        const std::vector<float> dy = bf16_values(count, -1, 1, engine_);
        const std::vector<float> gamma = bf16_values(channels, 0.5, 1.5, engine_);
        const std::vector<float> beta = bf16_values(channels, -1, 1, engine_);
        const std::vector<float> running_mean = bf16_values(channels, -0.5, 0.5, engine_);
        const std::vector<float> running_var = bf16_values(channels, 0.5, 2.0, engine_);
        const BatchNormSettings settings{0.2, 1e-3};

        Tensor xt = tensor(shape, x);
        Tensor gt = tensor({d.c}, gamma);
        Tensor bt = tensor({d.c}, beta);
        Tensor rm = tensor({d.c}, running_mean);
        Tensor rv = tensor({d.c}, running_var);
        Tensor yt = tensor(shape, std::vector<float>(count));
        Tensor sm = tensor({d.c}, std::vector<float>(channels));
        Tensor si = tensor({d.c}, std::vector<float>(channels));
        backend_.batch_norm_forward_training(xt, gt, bt, yt, rm, rv, sm, si, settings, true);
        const ForwardResult r =
            host_forward_training(d, x, gamma, beta, running_mean, running_var, settings);
        EXPECT_LT(relative_error(r.y, read(yt)), 1e-5);
        EXPECT_LT(relative_error(r.saved_mean, read(sm)), 1e-5);
        EXPECT_LT(relative_error(r.saved_inv_std, read(si)), 1e-5);
        EXPECT_LT(relative_error(r.running_mean, read(rm)), 1e-5);
        EXPECT_LT(relative_error(r.running_var, read(rv)), 1e-5);
        // Stored as bf16, both round the same float (up to the sums' last bits) once.
        EXPECT_LT(relative_error(rounded_to_bf16(r.y), rounded_to_bf16(read(yt))), 1e-2);

        Tensor dyt = tensor(shape, dy);
        Tensor dxt = tensor(shape, std::vector<float>(count));
        Tensor dg = tensor({d.c}, std::vector<float>(channels));
        Tensor db = tensor({d.c}, std::vector<float>(channels));
        backend_.batch_norm_backward(xt, dyt, gt, sm, si, dxt, dg, db, BatchNormSettings{});
        const BackwardResult b = host_backward(d, x, dy, gamma, read(sm), read(si));
        EXPECT_LT(relative_error(b.dx, read(dxt)), 1e-4);
        EXPECT_LT(relative_error(b.dgamma, read(dg)), 1e-4);
        EXPECT_LT(relative_error(b.dbeta, read(db)), 1e-4);

        backend_.batch_norm_forward_inference(xt, gt, bt, rm, rv, yt, settings);
        EXPECT_LT(relative_error(host_forward_inference(d, x, gamma, beta, read(rm), read(rv),
                                                        settings.epsilon),
                                 read(yt)),
                  1e-6);
    }
}

}  // namespace
}  // namespace trainscope::workloads::cuda
