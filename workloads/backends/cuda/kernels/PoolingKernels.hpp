#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "workloads/backends/cuda/kernels/PoolingMath.hpp"

// Max and average pooling over `planes` = N*C planes, with the CPU backend's semantics
// (gradient to the first maximum, count_include_pad). Backward gathers per input element,
// so no atomics and a fixed summation order.
namespace trainscope::workloads::cuda::kernels {

template <typename T>
void max_pool_forward(cudaStream_t stream, std::int64_t planes, const math::PoolPlane& d,
                      const T* x, T* y);
template <typename T>
void max_pool_backward(cudaStream_t stream, std::int64_t planes, const math::PoolPlane& d,
                       const T* x, const T* dy, T* dx);
template <typename T>
void avg_pool_forward(cudaStream_t stream, std::int64_t planes, const math::PoolPlane& d,
                      const T* x, T* y);
template <typename T>
void avg_pool_backward(cudaStream_t stream, std::int64_t planes, const math::PoolPlane& d,
                       const T* dy, T* dx);

}  // namespace trainscope::workloads::cuda::kernels
