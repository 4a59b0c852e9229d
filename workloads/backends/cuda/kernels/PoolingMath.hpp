#pragma once

#include <cmath>

#include "workloads/backends/cuda/kernels/StorageMath.hpp"
#include "workloads/numerics/HostDevice.hpp"

// Pooling windows of one [h, w] plane, computed per output (forward) or gathered per
// input (backward, so each input element is written by exactly one thread).
namespace trainscope::workloads::cuda::math {

struct PoolPlane {
    long long h, w, p, q;
    int window, stride, padding;
};

struct WindowBounds {
    long long h_begin, h_end, w_begin, w_end;
};

TS_HD inline long long clamp_low(long long v) {
    return v < 0 ? 0 : v;
}
TS_HD inline long long min_of(long long a, long long b) {
    return a < b ? a : b;
}

// In-bounds part of the window of output (op, oq); padding is outside.
TS_HD inline WindowBounds window_bounds(const PoolPlane& d, long long op, long long oq) {
    const long long h0 = op * d.stride - d.padding;
    const long long w0 = oq * d.stride - d.padding;
    return {clamp_low(h0), min_of(h0 + d.window, d.h), clamp_low(w0), min_of(w0 + d.window, d.w)};
}

// Index in the plane of the window's first maximum (row-major scan, strict >), the
// element the CPU backend sends the gradient to.
// T is a storage type (StorageMath.hpp); values compare in compute_t<T>.
template <typename T>
TS_HD inline long long first_max_index(const PoolPlane& d, const T* plane, const WindowBounds& b) {
    using C = compute_t<T>;
    long long best = b.h_begin * d.w + b.w_begin;
    C best_value = static_cast<C>(-INFINITY);
    for (long long ih = b.h_begin; ih < b.h_end; ++ih) {
        for (long long iw = b.w_begin; iw < b.w_end; ++iw) {
            const C value = load(plane[ih * d.w + iw]);
            if (value > best_value) {
                best_value = value;
                best = ih * d.w + iw;
            }
        }
    }
    return best;
}

template <typename T>
TS_HD inline compute_t<T> max_pool_output(const PoolPlane& d, const T* plane, long long op,
                                          long long oq) {
    return load(plane[first_max_index(d, plane, window_bounds(d, op, oq))]);
}

// count_include_pad: the divisor is the full window area.
template <typename T>
TS_HD inline compute_t<T> avg_pool_output(const PoolPlane& d, const T* plane, long long op,
                                          long long oq) {
    using C = compute_t<T>;
    const WindowBounds b = window_bounds(d, op, oq);
    C sum = 0;
    for (long long ih = b.h_begin; ih < b.h_end; ++ih) {
        for (long long iw = b.w_begin; iw < b.w_end; ++iw) {
            sum += load(plane[ih * d.w + iw]);
        }
    }
    return sum * (C(1) / static_cast<C>(d.window * d.window));
}

// Range of outputs along one axis whose window covers input coordinate i.
TS_HD inline void covering_outputs(long long i, int window, int stride, int padding,
                                   long long outputs, long long& first, long long& last) {
    // o * stride - padding <= i < o * stride - padding + window
    const long long high = i + padding;
    const long long low = high - window + 1;
    first = low <= 0 ? 0 : (low + stride - 1) / stride;
    last = min_of(outputs, high / stride + 1);
}

// Gradient reaching input (ih, iw): the sum of dy over the windows whose first maximum
// it is, in increasing output order like the CPU backend's scatter.
template <typename T>
TS_HD inline compute_t<T> max_pool_input_gradient(const PoolPlane& d, const T* x_plane,
                                                  const T* dy_plane, long long ih, long long iw) {
    long long p_first, p_last, q_first, q_last;
    covering_outputs(ih, d.window, d.stride, d.padding, d.p, p_first, p_last);
    covering_outputs(iw, d.window, d.stride, d.padding, d.q, q_first, q_last);
    const long long self = ih * d.w + iw;
    compute_t<T> sum = 0;
    for (long long op = p_first; op < p_last; ++op) {
        for (long long oq = q_first; oq < q_last; ++oq) {
            if (first_max_index(d, x_plane, window_bounds(d, op, oq)) == self) {
                sum += load(dy_plane[op * d.q + oq]);
            }
        }
    }
    return sum;
}

template <typename T>
TS_HD inline compute_t<T> avg_pool_input_gradient(const PoolPlane& d, const T* dy_plane,
                                                  long long ih, long long iw) {
    using C = compute_t<T>;
    long long p_first, p_last, q_first, q_last;
    covering_outputs(ih, d.window, d.stride, d.padding, d.p, p_first, p_last);
    covering_outputs(iw, d.window, d.stride, d.padding, d.q, q_first, q_last);
    const C scale = C(1) / static_cast<C>(d.window * d.window);
    C sum = 0;
    for (long long op = p_first; op < p_last; ++op) {
        for (long long oq = q_first; oq < q_last; ++oq) {
            sum += load(dy_plane[op * d.q + oq]) * scale;
        }
    }
    return sum;
}

}  // namespace trainscope::workloads::cuda::math
