#include "workloads/backends/cpu/detail/ConvKernels.hpp"

#include <algorithm>

#include "workloads/backends/cpu/detail/Blas.hpp"
#include "workloads/backends/cpu/detail/ColumnLayout.hpp"
#include "workloads/backends/cpu/detail/Tf32Inputs.hpp"

namespace trainscope::workloads::cpu {
namespace {

bool is_pointwise(const ConvDims& d) {
    return d.r == 1 && d.s == 1 && d.stride == 1 && d.padding == 0;
}

template <typename T>
const T* tf32_weights(KernelContext& context, const T* w, std::int64_t count, bool tf32) {
    if (!tf32) {
        return w;
    }
    context.shared_scratch.reserve(static_cast<std::size_t>(count) * sizeof(T));
    T* rounded = context.shared_scratch.as<T>();
    copy_as_tf32(w, rounded, count);
    return rounded;
}

template <typename T>
bool use_tf32(const KernelContext& context) {
    return sizeof(T) == 4 && context.math == MathMode::tf32;
}

}  // namespace

// Small output planes make one GEMM per image too narrow for the BLAS kernels; images
// then go in blocks whose columns sit side by side, one GEMM per block. The blocks depend
// only on the shapes, so results are the same from run to run.
inline std::int64_t images_per_gemm(std::int64_t pq, std::int64_t n) {
    constexpr std::int64_t kTargetColumns = 512;
    if (pq >= kTargetColumns) {
        return 1;
    }
    return std::max<std::int64_t>(1, std::min<std::int64_t>(n, kTargetColumns / pq));
}

template <typename T>
void conv_forward(KernelContext& context, const ConvDims& d, const T* x, const T* w, const T* bias,
                  T* y) {
    const bool tf32 = use_tf32<T>(context);
    const std::int64_t kdim = d.c * d.r * d.s;
    const std::int64_t pq = d.p * d.q;
    const T* weights = tf32_weights(context, w, d.k * kdim, tf32);
    const bool direct = is_pointwise(d) && !tf32;
    const std::int64_t group = direct ? 1 : images_per_gemm(pq, d.n);
    if (!direct) {
        const std::int64_t out_elements = group > 1 ? d.k * group * pq : 0;
        for (AlignedBuffer& scratch : context.worker_scratch) {
            scratch.reserve(static_cast<std::size_t>(kdim * group * pq + out_elements) *
                            sizeof(T));
        }
    }
    const std::int64_t blocks = (d.n + group - 1) / group;
    context.pool.parallel_for(blocks, [&](std::int64_t begin, std::int64_t end, int worker) {
        T* columns = context.worker_scratch[static_cast<std::size_t>(worker)].template as<T>();
        for (std::int64_t block = begin; block < end; ++block) {
            const std::int64_t first = block * group;
            const std::int64_t count = std::min(group, d.n - first);
            if (group > 1) {
                const std::int64_t ld = count * pq;
                T* result = columns + kdim * ld;
                for (std::int64_t i = 0; i < count; ++i) {
                    im2col(d, x + (first + i) * d.c * d.h * d.w, columns + i * pq, tf32, ld);
                }
                blas_gemm(false, false, static_cast<int>(d.k), static_cast<int>(ld),
                          static_cast<int>(kdim), T(1), weights, static_cast<int>(kdim), columns,
                          static_cast<int>(ld), T(0), result, static_cast<int>(ld));
                for (std::int64_t i = 0; i < count; ++i) {
                    T* out = y + (first + i) * d.k * pq;
                    for (std::int64_t k = 0; k < d.k; ++k) {
                        const T* __restrict source = result + k * ld + i * pq;
                        T* __restrict target = out + k * pq;
                        const T value = bias != nullptr ? bias[k] : T(0);
                        for (std::int64_t j = 0; j < pq; ++j) {
                            target[j] = source[j] + value;
                        }
                    }
                }
                continue;
            }
            const std::int64_t i = first;
            const T* image = x + i * d.c * d.h * d.w;
            const T* b = image;
            if (!direct) {
                im2col(d, image, columns, tf32);
                b = columns;
            }
            T* out = y + i * d.k * pq;
            blas_gemm(false, false, static_cast<int>(d.k), static_cast<int>(pq),
                      static_cast<int>(kdim), T(1), weights, static_cast<int>(kdim), b,
                      static_cast<int>(pq), T(0), out, static_cast<int>(pq));
            if (bias != nullptr) {
                for (std::int64_t k = 0; k < d.k; ++k) {
                    T* plane = out + k * pq;
                    const T value = bias[k];
                    for (std::int64_t j = 0; j < pq; ++j) {
                        plane[j] += value;
                    }
                }
            }
        }
    });
}

template <typename T>
void conv_backward_data(KernelContext& context, const ConvDims& d, const T* dy, const T* w, T* dx) {
    const bool tf32 = use_tf32<T>(context);
    const std::int64_t kdim = d.c * d.r * d.s;
    const std::int64_t pq = d.p * d.q;
    const T* weights = tf32_weights(context, w, d.k * kdim, tf32);
    const bool direct = is_pointwise(d);
    const std::size_t columns_bytes = direct ? 0 : static_cast<std::size_t>(kdim * pq) * sizeof(T);
    const std::size_t gradient_bytes = tf32 ? static_cast<std::size_t>(d.k * pq) * sizeof(T) : 0;
    for (AlignedBuffer& scratch : context.worker_scratch) {
        scratch.reserve(columns_bytes + gradient_bytes);
    }
    context.pool.parallel_for(d.n, [&](std::int64_t begin, std::int64_t end, int worker) {
        AlignedBuffer& scratch = context.worker_scratch[static_cast<std::size_t>(worker)];
        T* columns = scratch.template as<T>();
        T* rounded_dy = columns + (direct ? 0 : kdim * pq);
        for (std::int64_t i = begin; i < end; ++i) {
            const T* gradient = dy + i * d.k * pq;
            if (tf32) {
                copy_as_tf32(gradient, rounded_dy, d.k * pq);
                gradient = rounded_dy;
            }
            T* image = dx + i * d.c * d.h * d.w;
            T* out = direct ? image : columns;
            blas_gemm(true, false, static_cast<int>(kdim), static_cast<int>(pq),
                      static_cast<int>(d.k), T(1), weights, static_cast<int>(kdim), gradient,
                      static_cast<int>(pq), T(0), out, static_cast<int>(pq));
            if (!direct) {
                col2im(d, columns, image);
            }
        }
    });
}

template <typename T>
void conv_backward_filter(KernelContext& context, const ConvDims& d, const T* x, const T* dy, T* dw,
                          T* dbias) {
    const bool tf32 = use_tf32<T>(context);
    const std::int64_t kdim = d.c * d.r * d.s;
    const std::int64_t pq = d.p * d.q;
    const std::int64_t filter_elements = d.k * kdim;
    const bool direct = is_pointwise(d) && !tf32;
    const int workers = static_cast<int>(std::min<std::int64_t>(context.pool.size(), d.n));
    // Worker 0 accumulates straight into dw; the others into partial sums.
    const std::size_t partial_bytes = static_cast<std::size_t>(filter_elements) * sizeof(T);
    const std::size_t columns_bytes = direct ? 0 : static_cast<std::size_t>(kdim * pq) * sizeof(T);
    const std::size_t gradient_bytes = tf32 ? static_cast<std::size_t>(d.k * pq) * sizeof(T) : 0;
    for (AlignedBuffer& scratch : context.worker_scratch) {
        scratch.reserve(partial_bytes + columns_bytes + gradient_bytes);
    }
    context.pool.parallel_for(d.n, [&](std::int64_t begin, std::int64_t end, int worker) {
        AlignedBuffer& scratch = context.worker_scratch[static_cast<std::size_t>(worker)];
        T* partial = worker == 0 ? dw : scratch.template as<T>();
        T* columns = scratch.template as<T>() + filter_elements;
        T* rounded_dy = columns + (direct ? 0 : kdim * pq);
        for (std::int64_t i = begin; i < end; ++i) {
            const T* image = x + i * d.c * d.h * d.w;
            const T* b = image;
            if (!direct) {
                im2col(d, image, columns, tf32);
                b = columns;
            }
            const T* gradient = dy + i * d.k * pq;
            if (tf32) {
                copy_as_tf32(gradient, rounded_dy, d.k * pq);
                gradient = rounded_dy;
            }
            blas_gemm(false, true, static_cast<int>(d.k), static_cast<int>(kdim),
                      static_cast<int>(pq), T(1), gradient, static_cast<int>(pq), b,
                      static_cast<int>(pq), i == begin ? T(0) : T(1), partial,
                      static_cast<int>(kdim));
        }
    });
    for (int worker = 1; worker < workers; ++worker) {
        const T* partial = context.worker_scratch[static_cast<std::size_t>(worker)].as<T>();
        for (std::int64_t j = 0; j < filter_elements; ++j) {
            dw[j] += partial[j];
        }
    }
    if (dbias != nullptr) {
        for (std::int64_t k = 0; k < d.k; ++k) {
            T sum = 0;
            for (std::int64_t i = 0; i < d.n; ++i) {
                const T* plane = dy + (i * d.k + k) * pq;
                for (std::int64_t j = 0; j < pq; ++j) {
                    sum += plane[j];
                }
            }
            dbias[k] = sum;
        }
    }
}

template void conv_forward<float>(KernelContext&, const ConvDims&, const float*, const float*,
                                  const float*, float*);
template void conv_forward<double>(KernelContext&, const ConvDims&, const double*, const double*,
                                   const double*, double*);
template void conv_backward_data<float>(KernelContext&, const ConvDims&, const float*, const float*,
                                        float*);
template void conv_backward_data<double>(KernelContext&, const ConvDims&, const double*,
                                         const double*, double*);
template void conv_backward_filter<float>(KernelContext&, const ConvDims&, const float*,
                                          const float*, float*, float*);
template void conv_backward_filter<double>(KernelContext&, const ConvDims&, const double*,
                                           const double*, double*, double*);

}  // namespace trainscope::workloads::cpu
