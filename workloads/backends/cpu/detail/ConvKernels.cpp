#include "workloads/backends/cpu/detail/ConvKernels.hpp"

#include <algorithm>

#include "workloads/backends/cpu/detail/Blas.hpp"
#include "workloads/backends/cpu/detail/Tf32Inputs.hpp"

namespace trainscope::workloads::cpu {
namespace {

bool is_pointwise(const ConvDims& d) {
    return d.r == 1 && d.s == 1 && d.stride == 1 && d.padding == 0;
}

// Range of output columns q whose input column q * stride - padding + offset is inside [0, w).
inline void valid_columns(const ConvDims& d, std::int64_t offset, std::int64_t& first,
                          std::int64_t& last) {
    // q * stride >= padding - offset
    const std::int64_t low = d.padding - offset;
    first = low <= 0 ? 0 : (low + d.stride - 1) / d.stride;
    // q * stride <= w - 1 + padding - offset
    const std::int64_t high = d.w - 1 + d.padding - offset;
    last = high < 0 ? 0 : std::min<std::int64_t>(d.q, high / d.stride + 1);
    first = std::min(first, last);
}

// Column rows are as short as an image row, so the loops here must stay loops: GCC
// would otherwise turn each zero run and copy into a memset/memcpy call, and the calls
// cost more than the copying.
#if defined(__GNUC__) && !defined(__clang__)
#define TS_KEEP_LOOPS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define TS_KEEP_LOOPS
#endif

template <typename T>
TS_KEEP_LOOPS void zero(T* out, std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i) {
        out[i] = T(0);
    }
}

// "Same" convolutions (stride 1, output as large as the input, as in ResNets): each
// column block is the image plane shifted by (kr - padding, ks - padding), so it is one
// contiguous copy plus zeroed edges instead of one short copy per output row.
bool is_same_stride1(const ConvDims& d) {
    return d.stride == 1 && d.p == d.h && d.q == d.w;
}

// Output rows [first, last) of a block whose source rows exist.
struct BlockRows {
    std::int64_t first, last;
};

BlockRows block_rows(const ConvDims& d, std::int64_t row_shift) {
    return {std::max<std::int64_t>(0, -row_shift), std::min<std::int64_t>(d.p, d.h - row_shift)};
}

// Zeroes the columns of rows [first, last) whose source lies beyond the row's edge.
template <typename T>
TS_KEEP_LOOPS void zero_edges(const ConvDims& d, T* block, BlockRows rows, std::int64_t col_shift) {
    const std::int64_t left = std::max<std::int64_t>(0, -col_shift);
    const std::int64_t right = std::max<std::int64_t>(0, col_shift);
    for (std::int64_t op = rows.first; op < rows.last; ++op) {
        T* row = block + op * d.q;
        zero(row, left);
        zero(row + d.q - right, right);
    }
}

template <typename T>
TS_KEEP_LOOPS void im2col_same(const ConvDims& d, const T* image, T* columns) {
    const std::int64_t pq = d.p * d.q;
    for (std::int64_t c = 0; c < d.c; ++c) {
        const T* plane = image + c * pq;
        for (std::int64_t kr = 0; kr < d.r; ++kr) {
            for (std::int64_t ks = 0; ks < d.s; ++ks) {
                T* block = columns + ((c * d.r + kr) * d.s + ks) * pq;
                const std::int64_t row_shift = kr - d.padding;
                const std::int64_t col_shift = ks - d.padding;
                const BlockRows rows = block_rows(d, row_shift);
                if (rows.first >= rows.last) {
                    zero(block, pq);
                    continue;
                }
                zero(block, rows.first * d.q);
                zero(block + rows.last * d.q, (d.p - rows.last) * d.q);
                // Reads stay inside the source rows: the skipped ends are edge columns.
                T* __restrict target = block + rows.first * d.q;
                const T* __restrict source = plane + (rows.first + row_shift) * d.w + col_shift;
                const std::int64_t count = (rows.last - rows.first) * d.q;
                const std::int64_t end = count - std::max<std::int64_t>(0, col_shift);
                for (std::int64_t i = std::max<std::int64_t>(0, -col_shift); i < end; ++i) {
                    target[i] = source[i];
                }
                zero_edges(d, block, rows, col_shift);
            }
        }
    }
}

// The adjoint of im2col_same. Edge columns are zeroed in the columns first, so the one
// contiguous add puts exact zeros where a row wraps.
template <typename T>
TS_KEEP_LOOPS void col2im_same(const ConvDims& d, T* columns, T* image) {
    const std::int64_t pq = d.p * d.q;
    zero(image, d.c * pq);
    for (std::int64_t c = 0; c < d.c; ++c) {
        T* plane = image + c * pq;
        for (std::int64_t kr = 0; kr < d.r; ++kr) {
            for (std::int64_t ks = 0; ks < d.s; ++ks) {
                T* block = columns + ((c * d.r + kr) * d.s + ks) * pq;
                const std::int64_t row_shift = kr - d.padding;
                const std::int64_t col_shift = ks - d.padding;
                const BlockRows rows = block_rows(d, row_shift);
                if (rows.first >= rows.last) {
                    continue;
                }
                zero_edges(d, block, rows, col_shift);
                const T* __restrict source = block + rows.first * d.q;
                T* __restrict target = plane + (rows.first + row_shift) * d.w + col_shift;
                const std::int64_t count = (rows.last - rows.first) * d.q;
                const std::int64_t end = count - std::max<std::int64_t>(0, col_shift);
                for (std::int64_t i = std::max<std::int64_t>(0, -col_shift); i < end; ++i) {
                    target[i] += source[i];
                }
            }
        }
    }
}

// columns [c*r*s, p*q] of one image.
template <typename T>
TS_KEEP_LOOPS void im2col(const ConvDims& d, const T* image, T* columns, bool tf32) {
    if (is_same_stride1(d) && !tf32) {
        im2col_same(d, image, columns);
        return;
    }
    const std::int64_t pq = d.p * d.q;
    for (std::int64_t c = 0; c < d.c; ++c) {
        const T* plane = image + c * d.h * d.w;
        for (std::int64_t kr = 0; kr < d.r; ++kr) {
            for (std::int64_t ks = 0; ks < d.s; ++ks) {
                T* row = columns + ((c * d.r + kr) * d.s + ks) * pq;
                std::int64_t q_first = 0;
                std::int64_t q_last = 0;
                valid_columns(d, ks, q_first, q_last);
                for (std::int64_t op = 0; op < d.p; ++op) {
                    T* out = row + op * d.q;
                    const std::int64_t ih = op * d.stride - d.padding + kr;
                    if (ih < 0 || ih >= d.h) {
                        zero(out, d.q);
                        continue;
                    }
                    const T* in = plane + ih * d.w - d.padding + ks;
                    zero(out, q_first);
                    if (d.stride == 1 && !tf32) {
                        const T* __restrict source = in;
                        T* __restrict target = out;
                        for (std::int64_t oq = q_first; oq < q_last; ++oq) {
                            target[oq] = source[oq];
                        }
                    } else if (!tf32) {
                        const std::int64_t stride = d.stride;
                        for (std::int64_t oq = q_first; oq < q_last; ++oq) {
                            out[oq] = in[oq * stride];
                        }
                    } else {
                        for (std::int64_t oq = q_first; oq < q_last; ++oq) {
                            out[oq] = tf32_input(in[oq * d.stride], true);
                        }
                    }
                    zero(out + q_last, d.q - q_last);
                }
            }
        }
    }
}

// Adds columns back onto one image (the adjoint of im2col).
template <typename T>
TS_KEEP_LOOPS void col2im(const ConvDims& d, T* columns, T* image) {
    if (is_same_stride1(d)) {
        col2im_same(d, columns, image);
        return;
    }
    const std::int64_t pq = d.p * d.q;
    std::fill(image, image + d.c * d.h * d.w, T(0));
    for (std::int64_t c = 0; c < d.c; ++c) {
        T* plane = image + c * d.h * d.w;
        for (std::int64_t kr = 0; kr < d.r; ++kr) {
            for (std::int64_t ks = 0; ks < d.s; ++ks) {
                const T* row = columns + ((c * d.r + kr) * d.s + ks) * pq;
                std::int64_t q_first = 0;
                std::int64_t q_last = 0;
                valid_columns(d, ks, q_first, q_last);
                for (std::int64_t op = 0; op < d.p; ++op) {
                    const std::int64_t ih = op * d.stride - d.padding + kr;
                    if (ih < 0 || ih >= d.h) {
                        continue;
                    }
                    const T* __restrict in = row + op * d.q;
                    T* __restrict out = plane + ih * d.w - d.padding + ks;
                    if (d.stride == 1) {
                        for (std::int64_t oq = q_first; oq < q_last; ++oq) {
                            out[oq] += in[oq];
                        }
                    } else {
                        for (std::int64_t oq = q_first; oq < q_last; ++oq) {
                            out[oq * d.stride] += in[oq];
                        }
                    }
                }
            }
        }
    }
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

template <typename T>
void conv_forward(KernelContext& context, const ConvDims& d, const T* x, const T* w, const T* bias,
                  T* y) {
    const bool tf32 = use_tf32<T>(context);
    const std::int64_t kdim = d.c * d.r * d.s;
    const std::int64_t pq = d.p * d.q;
    const T* weights = tf32_weights(context, w, d.k * kdim, tf32);
    const bool direct = is_pointwise(d) && !tf32;
    if (!direct) {
        for (AlignedBuffer& scratch : context.worker_scratch) {
            scratch.reserve(static_cast<std::size_t>(kdim * pq) * sizeof(T));
        }
    }
    context.pool.parallel_for(d.n, [&](std::int64_t begin, std::int64_t end, int worker) {
        T* columns = context.worker_scratch[static_cast<std::size_t>(worker)].template as<T>();
        for (std::int64_t i = begin; i < end; ++i) {
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
