#pragma once

#include <cstdint>

#include "workloads/backends/cpu/detail/CpuKernelContext.hpp"

namespace trainscope::workloads::cpu {

// body(begin, end) over [0, count), on the workers only when count is large.
template <typename Body>
void for_elements(KernelContext& context, std::int64_t count, const Body& body) {
    if (count < kParallelElements) {
        body(std::int64_t{0}, count);
        return;
    }
    context.pool.parallel_for(count,
                              [&](std::int64_t begin, std::int64_t end, int) { body(begin, end); });
}

template <typename T>
void relu_forward(KernelContext& context, std::int64_t count, const T* x, T* y);
template <typename T>
void relu_backward(KernelContext& context, std::int64_t count, const T* y, const T* dy, T* dx);
template <typename T>
void add(KernelContext& context, std::int64_t count, const T* a, const T* b, T* y);
// y[i, c, j] += bias[c] for x viewed as [outer, channels, inner].
template <typename T>
void add_bias(KernelContext& context, std::int64_t outer, std::int64_t channels, std::int64_t inner,
              T* y, const T* bias);
template <typename T>
void bias_backward(KernelContext& context, std::int64_t outer, std::int64_t channels,
                   std::int64_t inner, const T* dy, T* dbias);
void round_storage(KernelContext& context, std::int64_t count, float* values,
                   StorageRounding rounding);
template <typename T>
bool all_finite(KernelContext& context, std::int64_t count, const T* values);

}  // namespace trainscope::workloads::cpu
