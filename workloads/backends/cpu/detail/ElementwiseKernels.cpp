#include "workloads/backends/cpu/detail/ElementwiseKernels.hpp"

#include <atomic>
#include <cmath>

#include "workloads/numerics/Rounding.hpp"

namespace trainscope::workloads::cpu {

template <typename T>
void relu_forward(KernelContext& context, std::int64_t count, const T* x, T* y) {
    for_elements(context, count, [&](std::int64_t begin, std::int64_t end) {
        // Unaliased, branch-free loops so the compiler vectorizes them.
        const T* __restrict in = x;
        T* __restrict out = y;
        for (std::int64_t i = begin; i < end; ++i) {
            const T value = in[i];
            out[i] = value > T(0) ? value : T(0);
        }
    });
}

template <typename T>
void relu_backward(KernelContext& context, std::int64_t count, const T* y, const T* dy, T* dx) {
    for_elements(context, count, [&](std::int64_t begin, std::int64_t end) {
        const T* __restrict out = y;
        const T* __restrict gradient = dy;
        T* __restrict result = dx;
        for (std::int64_t i = begin; i < end; ++i) {
            // Both loads unconditional: a select, not a branch.
            const T value = out[i];
            const T g = gradient[i];
            result[i] = value > T(0) ? g : T(0);
        }
    });
}

template <typename T>
void add(KernelContext& context, std::int64_t count, const T* a, const T* b, T* y) {
    for_elements(context, count, [&](std::int64_t begin, std::int64_t end) {
        const T* __restrict left = a;
        const T* __restrict right = b;
        T* __restrict out = y;
        for (std::int64_t i = begin; i < end; ++i) {
            out[i] = left[i] + right[i];
        }
    });
}

template <typename T>
void add_bias(KernelContext& context, std::int64_t outer, std::int64_t channels, std::int64_t inner,
              T* y, const T* bias) {
    (void)context;
    for (std::int64_t o = 0; o < outer; ++o) {
        for (std::int64_t c = 0; c < channels; ++c) {
            T* row = y + (o * channels + c) * inner;
            const T value = bias[c];
            for (std::int64_t j = 0; j < inner; ++j) {
                row[j] += value;
            }
        }
    }
}

template <typename T>
void bias_backward(KernelContext& context, std::int64_t outer, std::int64_t channels,
                   std::int64_t inner, const T* dy, T* dbias) {
    (void)context;
    for (std::int64_t c = 0; c < channels; ++c) {
        dbias[c] = T(0);
    }
    for (std::int64_t o = 0; o < outer; ++o) {
        for (std::int64_t c = 0; c < channels; ++c) {
            const T* row = dy + (o * channels + c) * inner;
            T sum = 0;
            for (std::int64_t j = 0; j < inner; ++j) {
                sum += row[j];
            }
            dbias[c] += sum;
        }
    }
}

void round_storage(KernelContext& context, std::int64_t count, float* values,
                   StorageRounding rounding) {
    if (rounding == StorageRounding::none) {
        return;
    }
    for_elements(context, count, [&](std::int64_t begin, std::int64_t end) {
        if (rounding == StorageRounding::fp16) {
            for (std::int64_t i = begin; i < end; ++i) {
                values[i] = numerics::round_to_fp16(values[i]);
            }
        } else {
            for (std::int64_t i = begin; i < end; ++i) {
                values[i] = numerics::round_to_bf16(values[i]);
            }
        }
    });
}

template <typename T>
bool all_finite(KernelContext& context, std::int64_t count, const T* values) {
    std::atomic<bool> finite{true};
    for_elements(context, count, [&](std::int64_t begin, std::int64_t end) {
        bool chunk_finite = true;
        for (std::int64_t i = begin; i < end; ++i) {
            chunk_finite &= std::isfinite(values[i]);
        }
        if (!chunk_finite) {
            finite.store(false, std::memory_order_relaxed);
        }
    });
    return finite.load();
}

#define TS_INSTANTIATE_ELEMENTWISE(T)                                                        \
    template void relu_forward<T>(KernelContext&, std::int64_t, const T*, T*);               \
    template void relu_backward<T>(KernelContext&, std::int64_t, const T*, const T*, T*);    \
    template void add<T>(KernelContext&, std::int64_t, const T*, const T*, T*);              \
    template void add_bias<T>(KernelContext&, std::int64_t, std::int64_t, std::int64_t, T*,  \
                              const T*);                                                     \
    template void bias_backward<T>(KernelContext&, std::int64_t, std::int64_t, std::int64_t, \
                                   const T*, T*);                                            \
    template bool all_finite<T>(KernelContext&, std::int64_t, const T*);
TS_INSTANTIATE_ELEMENTWISE(float)
TS_INSTANTIATE_ELEMENTWISE(double)
#undef TS_INSTANTIATE_ELEMENTWISE

}  // namespace trainscope::workloads::cpu
