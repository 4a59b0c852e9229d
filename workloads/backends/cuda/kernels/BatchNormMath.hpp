#pragma once

#include <cmath>

#include "workloads/numerics/HostDevice.hpp"

// Per-channel and per-element math of the CUDA backend's own batch-norm kernels (used for
// bf16 storage; docs/cuda-backend.md says why), written once for the device and for the
// CPU tests. The definitions are the CPU backend's (backends/cpu/detail/
// NormalizationKernels.cpp): the batch mean and the biased batch variance of one channel
// over N, H, W; saved_inv_std = 1 / sqrt(variance + eps); running statistics blended as
// running = (1 - momentum) * running + momentum * batch with the unbiased variance
// (PyTorch's and cuDNN's rule); the per-channel coefficients in double, rounded once to
// the float the per-element loops use. The kernels' sums are float (the element loads
// are exact floats), their reduction order fixed (ChannelReductionMath.hpp): the sum in
// one pass, and the squared deviations per slice about the slice's mean, recentred on
// the channel's float mean when the slices are combined.
namespace trainscope::workloads::cuda::math {

TS_HD inline double batch_norm_sqrt(double value) {
#if defined(__CUDA_ARCH__)
    return sqrt(value);
#else
    return std::sqrt(value);
#endif
}

// The batch statistics of one channel from its sum over `count` elements and its sum of
// squared deviations from `centre` (the mean rounded to float, as the CPU backend centres).
struct BatchNormBatchStats {
    double mean;
    double variance;  // biased: squares / count
    double inv_std;   // 1 / sqrt(variance + epsilon)
};

TS_HD inline double batch_norm_mean(double sum, double count) {
    return sum / count;
}

TS_HD inline double batch_norm_inv_std(double variance, double epsilon) {
    return 1.0 / batch_norm_sqrt(variance + epsilon);
}

// The per-element terms of the reductions, in float like the CPU backend's: the squared
// deviation from the (float) centre in the forward pass, dy times it in the backward.
TS_HD inline float batch_norm_centered_square(float x, float centre) {
    const float centered = x - centre;
    return centered * centered;
}

TS_HD inline float batch_norm_centered_product(float dy, float x, float centre) {
    return dy * (x - centre);
}

// The statistics pass sums each slice of a channel (ChannelReductionMath.hpp) and its
// squared deviations from the slice's own mean; the per-channel step recentres those on
// the channel's centre: sum (x - c)^2 = sum (x - m)^2 + n (m - c)^2 for a slice of n
// elements with mean m (Chan, Golub and LeVeque's pairwise update). Both steps take the
// slice mean from this one function, so they agree on it bit for bit.
TS_HD inline float batch_norm_slice_mean(float sum, long long elements) {
    return elements > 0 ? sum / static_cast<float>(elements) : 0.0f;
}

TS_HD inline float batch_norm_recentred_squares(float squares, long long elements, float slice_mean,
                                                float centre) {
    const float shift = slice_mean - centre;
    return squares + static_cast<float>(elements) * shift * shift;
}

TS_HD inline BatchNormBatchStats batch_norm_finalize(double sum, double squares, double count,
                                                     double epsilon) {
    const double variance = squares / count;
    return {batch_norm_mean(sum, count), variance, batch_norm_inv_std(variance, epsilon)};
}

// The unbiased estimate the running variance is blended with (count > 1; a single
// element per channel keeps the biased one, as the CPU backend does).
TS_HD inline double batch_norm_unbiased_variance(double variance, double count) {
    return count > 1.0 ? variance * count / (count - 1.0) : variance;
}

// running = (1 - momentum) * running + momentum * batch (BatchNormSettings::momentum).
TS_HD inline float batch_norm_blend(float running, double batch, double momentum) {
    return static_cast<float>((1.0 - momentum) * static_cast<double>(running) + momentum * batch);
}

// y = x * scale + shift for one channel: scale = gamma * inv_std and
// shift = beta - mean * gamma * inv_std, computed in double and rounded once to float.
struct BatchNormAffine {
    float scale;
    float shift;
};

TS_HD inline BatchNormAffine batch_norm_affine(double gamma, double beta, double mean,
                                               double inv_std) {
    return {static_cast<float>(gamma * inv_std), static_cast<float>(beta - mean * gamma * inv_std)};
}

TS_HD inline float batch_norm_normalize(float x, BatchNormAffine affine) {
    return x * affine.scale + affine.shift;
}

// Backward of one channel from its two reductions over the batch, sum(dy) and
// sum(dy * (x - saved_mean)), with the saved mean (float) and inverse std:
// dgamma = sum(dy * xhat), dbeta = sum(dy) and, as dx = a * dy + b * x + c,
// dx = gamma * inv_std * (dy - mean(dy) - xhat * mean(dy * xhat)).
struct BatchNormBackwardCoefficients {
    float dgamma;
    float dbeta;
    float a, b, c;
};

TS_HD inline BatchNormBackwardCoefficients batch_norm_backward_coefficients(
    double gamma, double saved_mean, double saved_inv_std, double sum_dy, double sum_dy_centered,
    double count) {
    const double sum_dy_xhat = sum_dy_centered * saved_inv_std;
    const double g_scale = gamma * saved_inv_std;
    const double mean_dy = sum_dy / count;
    const double mean_dy_xhat = sum_dy_xhat / count;
    return {static_cast<float>(sum_dy_xhat), static_cast<float>(sum_dy),
            static_cast<float>(g_scale),
            static_cast<float>(-g_scale * saved_inv_std * mean_dy_xhat),
            static_cast<float>(-g_scale * mean_dy +
                               g_scale * saved_inv_std * mean_dy_xhat * saved_mean)};
}

TS_HD inline float batch_norm_input_gradient(float dy, float x,
                                             const BatchNormBackwardCoefficients& k) {
    return k.a * dy + k.b * x + k.c;
}

}  // namespace trainscope::workloads::cuda::math
