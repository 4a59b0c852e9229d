#pragma once

#include <cstdint>

#include "workloads/backends/cpu/detail/CpuKernelContext.hpp"

namespace trainscope::workloads::cpu {

// x [n,c,h,w] -> y [n,c,p,q] with a square window.
struct PoolDims {
    std::int64_t n, c, h, w, p, q;
    int window, stride, padding;
};

template <typename T>
void max_pool_forward(KernelContext& context, const PoolDims& dims, const T* x, T* y);
template <typename T>
void max_pool_backward(KernelContext& context, const PoolDims& dims, const T* x, const T* dy,
                       T* dx);
template <typename T>
void avg_pool_forward(KernelContext& context, const PoolDims& dims, const T* x, T* y);
template <typename T>
void avg_pool_backward(KernelContext& context, const PoolDims& dims, const T* dy, T* dx);
// planes = n * c planes of `area` elements each.
template <typename T>
void global_avg_pool_forward(KernelContext& context, std::int64_t planes, std::int64_t area,
                             const T* x, T* y);
template <typename T>
void global_avg_pool_backward(KernelContext& context, std::int64_t planes, std::int64_t area,
                              const T* dy, T* dx);

}  // namespace trainscope::workloads::cpu
