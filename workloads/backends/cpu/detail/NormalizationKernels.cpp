#include "workloads/backends/cpu/detail/NormalizationKernels.hpp"

#include <cmath>

namespace trainscope::workloads::cpu {
namespace {

// Sums over one plane with eight independent partial sums, which the compiler turns into
// vector adds (a single running sum would be a serial dependency chain). The order is
// fixed, so results are reproducible. Planes are summed into doubles by the callers.
template <typename T, typename Term>
T plane_sum(std::int64_t count, const Term& term) {
    T partial[8] = {};
    std::int64_t j = 0;
    for (; j + 8 <= count; j += 8) {
        for (int k = 0; k < 8; ++k) {
            partial[k] += term(j + k);
        }
    }
    T tail = 0;
    for (; j < count; ++j) {
        tail += term(j);
    }
    return ((partial[0] + partial[1]) + (partial[2] + partial[3])) +
           ((partial[4] + partial[5]) + (partial[6] + partial[7])) + tail;
}

// out = in * scale + shift over one plane.
template <typename T>
void affine(const T* __restrict in, T* __restrict out, std::int64_t count, T scale, T shift) {
    for (std::int64_t j = 0; j < count; ++j) {
        out[j] = in[j] * scale + shift;
    }
}

}  // namespace

template <typename T>
void batch_norm_forward_training(KernelContext& context, const NormDims& d, const T* x,
                                 const T* gamma, const T* beta, T* y, T* running_mean,
                                 T* running_var, T* saved_mean, T* saved_inv_std,
                                 const BatchNormSettings& settings, bool update_running) {
    const double count = static_cast<double>(d.n * d.area);
    context.pool.parallel_for(d.c, [&](std::int64_t begin, std::int64_t end, int) {
        for (std::int64_t ch = begin; ch < end; ++ch) {
            double sum = 0.0;
            for (std::int64_t i = 0; i < d.n; ++i) {
                const T* plane = x + (i * d.c + ch) * d.area;
                sum += static_cast<double>(
                    plane_sum<T>(d.area, [plane](std::int64_t j) { return plane[j]; }));
            }
            const double mean = sum / count;
            const T mean_t = static_cast<T>(mean);
            double squares = 0.0;
            for (std::int64_t i = 0; i < d.n; ++i) {
                const T* plane = x + (i * d.c + ch) * d.area;
                squares +=
                    static_cast<double>(plane_sum<T>(d.area, [plane, mean_t](std::int64_t j) {
                        const T centered = plane[j] - mean_t;
                        return centered * centered;
                    }));
            }
            const double variance = squares / count;
            const double inv_std = 1.0 / std::sqrt(variance + settings.epsilon);
            saved_mean[ch] = mean_t;
            saved_inv_std[ch] = static_cast<T>(inv_std);
            if (update_running) {
                // The running variance is the unbiased estimate, as in PyTorch and cuDNN.
                const double unbiased = count > 1.0 ? variance * count / (count - 1.0) : variance;
                running_mean[ch] = static_cast<T>((1.0 - settings.momentum) * running_mean[ch] +
                                                  settings.momentum * mean);
                running_var[ch] = static_cast<T>((1.0 - settings.momentum) * running_var[ch] +
                                                 settings.momentum * unbiased);
            }
            const T scale = static_cast<T>(static_cast<double>(gamma[ch]) * inv_std);
            const T shift = static_cast<T>(static_cast<double>(beta[ch]) -
                                           mean * static_cast<double>(gamma[ch]) * inv_std);
            for (std::int64_t i = 0; i < d.n; ++i) {
                const std::int64_t offset = (i * d.c + ch) * d.area;
                affine(x + offset, y + offset, d.area, scale, shift);
            }
        }
    });
}

template <typename T>
void batch_norm_forward_inference(KernelContext& context, const NormDims& d, const T* x,
                                  const T* gamma, const T* beta, const T* running_mean,
                                  const T* running_var, T* y, const BatchNormSettings& settings) {
    context.pool.parallel_for(d.c, [&](std::int64_t begin, std::int64_t end, int) {
        for (std::int64_t ch = begin; ch < end; ++ch) {
            const double inv_std =
                1.0 / std::sqrt(static_cast<double>(running_var[ch]) + settings.epsilon);
            const T scale = static_cast<T>(static_cast<double>(gamma[ch]) * inv_std);
            const T shift = static_cast<T>(static_cast<double>(beta[ch]) -
                                           static_cast<double>(running_mean[ch]) *
                                               static_cast<double>(gamma[ch]) * inv_std);
            for (std::int64_t i = 0; i < d.n; ++i) {
                const std::int64_t offset = (i * d.c + ch) * d.area;
                affine(x + offset, y + offset, d.area, scale, shift);
            }
        }
    });
}

template <typename T>
void batch_norm_backward(KernelContext& context, const NormDims& d, const T* x, const T* dy,
                         const T* gamma, const T* saved_mean, const T* saved_inv_std, T* dx,
                         T* dgamma, T* dbeta) {
    const double count = static_cast<double>(d.n * d.area);
    context.pool.parallel_for(d.c, [&](std::int64_t begin, std::int64_t end, int) {
        for (std::int64_t ch = begin; ch < end; ++ch) {
            const T mean_t = saved_mean[ch];
            const double mean = static_cast<double>(mean_t);
            const double inv_std = static_cast<double>(saved_inv_std[ch]);
            double sum_dy = 0.0;
            double sum_dy_centered = 0.0;
            for (std::int64_t i = 0; i < d.n; ++i) {
                const T* in = x + (i * d.c + ch) * d.area;
                const T* gradient = dy + (i * d.c + ch) * d.area;
                sum_dy += static_cast<double>(
                    plane_sum<T>(d.area, [gradient](std::int64_t j) { return gradient[j]; }));
                sum_dy_centered += static_cast<double>(
                    plane_sum<T>(d.area, [in, gradient, mean_t](std::int64_t j) {
                        return gradient[j] * (in[j] - mean_t);
                    }));
            }
            const double sum_dy_xhat = sum_dy_centered * inv_std;
            dgamma[ch] = static_cast<T>(sum_dy_xhat);
            dbeta[ch] = static_cast<T>(sum_dy);
            // dx = gamma * inv_std * (dy - mean(dy) - xhat * mean(dy * xhat)), written as
            // dx = a * dy + b * x + c.
            const double g_scale = static_cast<double>(gamma[ch]) * inv_std;
            const double mean_dy = sum_dy / count;
            const double mean_dy_xhat = sum_dy_xhat / count;
            const T a = static_cast<T>(g_scale);
            const T b = static_cast<T>(-g_scale * inv_std * mean_dy_xhat);
            const T c =
                static_cast<T>(-g_scale * mean_dy + g_scale * inv_std * mean_dy_xhat * mean);
            for (std::int64_t i = 0; i < d.n; ++i) {
                const std::int64_t offset = (i * d.c + ch) * d.area;
                const T* __restrict in = x + offset;
                const T* __restrict gradient = dy + offset;
                T* __restrict out = dx + offset;
                for (std::int64_t j = 0; j < d.area; ++j) {
                    out[j] = a * gradient[j] + b * in[j] + c;
                }
            }
        }
    });
}

#define TS_INSTANTIATE_NORM(T)                                                                \
    template void batch_norm_forward_training<T>(KernelContext&, const NormDims&, const T*,   \
                                                 const T*, const T*, T*, T*, T*, T*, T*,      \
                                                 const BatchNormSettings&, bool);             \
    template void batch_norm_forward_inference<T>(KernelContext&, const NormDims&, const T*,  \
                                                  const T*, const T*, const T*, const T*, T*, \
                                                  const BatchNormSettings&);                  \
    template void batch_norm_backward<T>(KernelContext&, const NormDims&, const T*, const T*, \
                                         const T*, const T*, const T*, T*, T*, T*);
TS_INSTANTIATE_NORM(float)
TS_INSTANTIATE_NORM(double)
#undef TS_INSTANTIATE_NORM

}  // namespace trainscope::workloads::cpu
