#include "workloads/backends/cpu/detail/NormalizationKernels.hpp"

#include <cmath>

namespace trainscope::workloads::cpu {

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
                for (std::int64_t j = 0; j < d.area; ++j) {
                    sum += static_cast<double>(plane[j]);
                }
            }
            const double mean = sum / count;
            double squares = 0.0;
            for (std::int64_t i = 0; i < d.n; ++i) {
                const T* plane = x + (i * d.c + ch) * d.area;
                for (std::int64_t j = 0; j < d.area; ++j) {
                    const double centered = static_cast<double>(plane[j]) - mean;
                    squares += centered * centered;
                }
            }
            const double variance = squares / count;
            const double inv_std = 1.0 / std::sqrt(variance + settings.epsilon);
            saved_mean[ch] = static_cast<T>(mean);
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
                const T* in = x + (i * d.c + ch) * d.area;
                T* out = y + (i * d.c + ch) * d.area;
                for (std::int64_t j = 0; j < d.area; ++j) {
                    out[j] = in[j] * scale + shift;
                }
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
                const T* in = x + (i * d.c + ch) * d.area;
                T* out = y + (i * d.c + ch) * d.area;
                for (std::int64_t j = 0; j < d.area; ++j) {
                    out[j] = in[j] * scale + shift;
                }
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
            const double mean = static_cast<double>(saved_mean[ch]);
            const double inv_std = static_cast<double>(saved_inv_std[ch]);
            double sum_dy = 0.0;
            double sum_dy_xhat = 0.0;
            for (std::int64_t i = 0; i < d.n; ++i) {
                const T* in = x + (i * d.c + ch) * d.area;
                const T* gradient = dy + (i * d.c + ch) * d.area;
                for (std::int64_t j = 0; j < d.area; ++j) {
                    const double g = static_cast<double>(gradient[j]);
                    sum_dy += g;
                    sum_dy_xhat += g * (static_cast<double>(in[j]) - mean) * inv_std;
                }
            }
            dgamma[ch] = static_cast<T>(sum_dy_xhat);
            dbeta[ch] = static_cast<T>(sum_dy);
            // dx = gamma * inv_std * (dy - mean(dy) - xhat * mean(dy * xhat))
            const double g_scale = static_cast<double>(gamma[ch]) * inv_std;
            const double mean_dy = sum_dy / count;
            const double mean_dy_xhat = sum_dy_xhat / count;
            for (std::int64_t i = 0; i < d.n; ++i) {
                const T* in = x + (i * d.c + ch) * d.area;
                const T* gradient = dy + (i * d.c + ch) * d.area;
                T* out = dx + (i * d.c + ch) * d.area;
                for (std::int64_t j = 0; j < d.area; ++j) {
                    const double xhat = (static_cast<double>(in[j]) - mean) * inv_std;
                    out[j] = static_cast<T>(g_scale * (static_cast<double>(gradient[j]) - mean_dy -
                                                       xhat * mean_dy_xhat));
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
