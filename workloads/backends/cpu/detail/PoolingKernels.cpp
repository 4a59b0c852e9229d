#include "workloads/backends/cpu/detail/PoolingKernels.hpp"

#include <algorithm>
#include <limits>

namespace trainscope::workloads::cpu {
namespace {

// Calls visit(out_index, in_index) for every in-bounds input of every window of one plane.
template <typename Visit>
void for_each_window(const PoolDims& d, Visit&& visit) {
    for (std::int64_t op = 0; op < d.p; ++op) {
        const std::int64_t h0 = op * d.stride - d.padding;
        const std::int64_t h_begin = std::max<std::int64_t>(h0, 0);
        const std::int64_t h_end = std::min<std::int64_t>(h0 + d.window, d.h);
        for (std::int64_t oq = 0; oq < d.q; ++oq) {
            const std::int64_t w0 = oq * d.stride - d.padding;
            const std::int64_t w_begin = std::max<std::int64_t>(w0, 0);
            const std::int64_t w_end = std::min<std::int64_t>(w0 + d.window, d.w);
            visit(op * d.q + oq, h_begin, h_end, w_begin, w_end);
        }
    }
}

template <typename T>
std::int64_t first_max_index(const PoolDims& d, const T* plane, std::int64_t h_begin,
                             std::int64_t h_end, std::int64_t w_begin, std::int64_t w_end) {
    std::int64_t best = h_begin * d.w + w_begin;
    T best_value = -std::numeric_limits<T>::infinity();
    for (std::int64_t ih = h_begin; ih < h_end; ++ih) {
        for (std::int64_t iw = w_begin; iw < w_end; ++iw) {
            const T value = plane[ih * d.w + iw];
            if (value > best_value) {
                best_value = value;
                best = ih * d.w + iw;
            }
        }
    }
    return best;
}

// Non-overlapping 2x2 windows: every input belongs to at most one window, so each
// window writes its four gradients (one of them non-zero) without a separate zeroing pass.
template <typename T>
void max_pool_2x2_backward_plane(const PoolDims& d, const T* in, const T* gradient, T* out) {
    if (d.h != 2 * d.p || d.w != 2 * d.q) {
        std::fill(out, out + d.h * d.w, T(0));  // odd edges belong to no window
    }
    for (std::int64_t op = 0; op < d.p; ++op) {
        const T* row0 = in + 2 * op * d.w;
        const T* row1 = row0 + d.w;
        T* out0 = out + 2 * op * d.w;
        T* out1 = out0 + d.w;
        for (std::int64_t oq = 0; oq < d.q; ++oq) {
            const std::int64_t j = 2 * oq;
            // First maximum in row-major window order, as first_max_index picks it.
            const T a = row0[j];
            const T b = row0[j + 1];
            const T c = row1[j];
            const T e = row1[j + 1];
            const bool b_wins = b > a;
            T best_value = b_wins ? b : a;
            int best = b_wins ? 1 : 0;
            const bool c_wins = c > best_value;
            best_value = c_wins ? c : best_value;
            best = c_wins ? 2 : best;
            best = e > best_value ? 3 : best;
            const T g = gradient[op * d.q + oq];
            out0[j] = best == 0 ? g : T(0);
            out0[j + 1] = best == 1 ? g : T(0);
            out1[j] = best == 2 ? g : T(0);
            out1[j + 1] = best == 3 ? g : T(0);
        }
    }
}

}  // namespace

template <typename T>
void max_pool_forward(KernelContext& context, const PoolDims& d, const T* x, T* y) {
    context.pool.parallel_for(d.n * d.c, [&](std::int64_t begin, std::int64_t end, int) {
        for (std::int64_t plane = begin; plane < end; ++plane) {
            const T* in = x + plane * d.h * d.w;
            T* out = y + plane * d.p * d.q;
            if (d.window == 2 && d.stride == 2 && d.padding == 0) {
                for (std::int64_t op = 0; op < d.p; ++op) {
                    const T* row0 = in + 2 * op * d.w;
                    const T* row1 = row0 + d.w;
                    for (std::int64_t oq = 0; oq < d.q; ++oq) {
                        const std::int64_t j = 2 * oq;
                        const T a = std::max(row0[j], row0[j + 1]);
                        const T b = std::max(row1[j], row1[j + 1]);
                        out[op * d.q + oq] = std::max(a, b);
                    }
                }
                continue;
            }
            for_each_window(
                d, [&](std::int64_t o, std::int64_t hb, std::int64_t he, std::int64_t wb,
                       std::int64_t we) { out[o] = in[first_max_index(d, in, hb, he, wb, we)]; });
        }
    });
}

template <typename T>
void max_pool_backward(KernelContext& context, const PoolDims& d, const T* x, const T* dy, T* dx) {
    context.pool.parallel_for(d.n * d.c, [&](std::int64_t begin, std::int64_t end, int) {
        for (std::int64_t plane = begin; plane < end; ++plane) {
            const T* in = x + plane * d.h * d.w;
            const T* gradient = dy + plane * d.p * d.q;
            T* out = dx + plane * d.h * d.w;
            if (d.window == 2 && d.stride == 2 && d.padding == 0) {
                max_pool_2x2_backward_plane(d, in, gradient, out);
                continue;
            }
            std::fill(out, out + d.h * d.w, T(0));
            for_each_window(d, [&](std::int64_t o, std::int64_t hb, std::int64_t he,
                                   std::int64_t wb, std::int64_t we) {
                out[first_max_index(d, in, hb, he, wb, we)] += gradient[o];
            });
        }
    });
}

template <typename T>
void avg_pool_forward(KernelContext& context, const PoolDims& d, const T* x, T* y) {
    const T scale = T(1) / static_cast<T>(d.window * d.window);
    context.pool.parallel_for(d.n * d.c, [&](std::int64_t begin, std::int64_t end, int) {
        for (std::int64_t plane = begin; plane < end; ++plane) {
            const T* in = x + plane * d.h * d.w;
            T* out = y + plane * d.p * d.q;
            for_each_window(d, [&](std::int64_t o, std::int64_t hb, std::int64_t he,
                                   std::int64_t wb, std::int64_t we) {
                T sum = 0;
                for (std::int64_t ih = hb; ih < he; ++ih) {
                    for (std::int64_t iw = wb; iw < we; ++iw) {
                        sum += in[ih * d.w + iw];
                    }
                }
                out[o] = sum * scale;
            });
        }
    });
}

template <typename T>
void avg_pool_backward(KernelContext& context, const PoolDims& d, const T* dy, T* dx) {
    const T scale = T(1) / static_cast<T>(d.window * d.window);
    context.pool.parallel_for(d.n * d.c, [&](std::int64_t begin, std::int64_t end, int) {
        for (std::int64_t plane = begin; plane < end; ++plane) {
            const T* gradient = dy + plane * d.p * d.q;
            T* out = dx + plane * d.h * d.w;
            std::fill(out, out + d.h * d.w, T(0));
            for_each_window(d, [&](std::int64_t o, std::int64_t hb, std::int64_t he,
                                   std::int64_t wb, std::int64_t we) {
                const T share = gradient[o] * scale;
                for (std::int64_t ih = hb; ih < he; ++ih) {
                    for (std::int64_t iw = wb; iw < we; ++iw) {
                        out[ih * d.w + iw] += share;
                    }
                }
            });
        }
    });
}

template <typename T>
void global_avg_pool_forward(KernelContext& context, std::int64_t planes, std::int64_t area,
                             const T* x, T* y) {
    context.pool.parallel_for(planes, [&](std::int64_t begin, std::int64_t end, int) {
        for (std::int64_t plane = begin; plane < end; ++plane) {
            const T* in = x + plane * area;
            T sum = 0;
            for (std::int64_t j = 0; j < area; ++j) {
                sum += in[j];
            }
            y[plane] = sum / static_cast<T>(area);
        }
    });
}

template <typename T>
void global_avg_pool_backward(KernelContext& context, std::int64_t planes, std::int64_t area,
                              const T* dy, T* dx) {
    context.pool.parallel_for(planes, [&](std::int64_t begin, std::int64_t end, int) {
        for (std::int64_t plane = begin; plane < end; ++plane) {
            const T share = dy[plane] / static_cast<T>(area);
            std::fill(dx + plane * area, dx + (plane + 1) * area, share);
        }
    });
}

#define TS_INSTANTIATE_POOLING(T)                                                                  \
    template void max_pool_forward<T>(KernelContext&, const PoolDims&, const T*, T*);              \
    template void max_pool_backward<T>(KernelContext&, const PoolDims&, const T*, const T*, T*);   \
    template void avg_pool_forward<T>(KernelContext&, const PoolDims&, const T*, T*);              \
    template void avg_pool_backward<T>(KernelContext&, const PoolDims&, const T*, T*);             \
    template void global_avg_pool_forward<T>(KernelContext&, std::int64_t, std::int64_t, const T*, \
                                             T*);                                                  \
    template void global_avg_pool_backward<T>(KernelContext&, std::int64_t, std::int64_t,          \
                                              const T*, T*);
TS_INSTANTIATE_POOLING(float)
TS_INSTANTIATE_POOLING(double)
#undef TS_INSTANTIATE_POOLING

}  // namespace trainscope::workloads::cpu
