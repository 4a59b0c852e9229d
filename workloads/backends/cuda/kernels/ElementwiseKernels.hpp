#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "workloads/backends/cuda/kernels/StorageMath.hpp"
#include "workloads/numerics/Precision.hpp"

// Launchers of this backend's own element-wise kernels, queued on `stream`. Counts are
// elements; [outer, channels, inner] describes NCHW (inner = H*W) or [N, C] (inner = 1).
// T is a storage type (StorageMath.hpp): float, double, math::Fp16, math::Bf16; 16-bit
// elements are computed in float and rounded once when stored.
namespace trainscope::workloads::cuda::kernels {

template <typename T>
void fill(cudaStream_t stream, std::int64_t count, T value, T* y);
template <typename T>
void relu_forward(cudaStream_t stream, std::int64_t count, const T* x, T* y);
template <typename T>
void relu_backward(cudaStream_t stream, std::int64_t count, const T* y, const T* dy, T* dx);
template <typename T>
void add(cudaStream_t stream, std::int64_t count, const T* a, const T* b, T* y);
template <typename T>
void add_bias(cudaStream_t stream, std::int64_t outer, std::int64_t channels, std::int64_t inner,
              T* y, const T* bias);
// dbias[c] = the sum over outer and inner of dy: a (slice, channel) grid of partial sums
// into `workspace` (device memory of bias_backward_workspace_bytes<T>, used on `stream`
// only), then one warp per channel adding them in a fixed order (ChannelReductionMath.hpp):
// no atomics, the same bits on every launch.
template <typename T>
std::size_t bias_backward_workspace_bytes(std::int64_t outer, std::int64_t channels,
                                          std::int64_t inner);
template <typename T>
void bias_backward(cudaStream_t stream, std::int64_t outer, std::int64_t channels,
                   std::int64_t inner, const T* dy, T* dbias, void* workspace);
// A warp per plane, 16-byte loads where the planes allow them, a shuffle-tree sum.
template <typename T>
void global_avg_pool_forward(cudaStream_t stream, std::int64_t planes, std::int64_t area,
                             const T* x, T* y);
template <typename T>
void global_avg_pool_backward(cudaStream_t stream, std::int64_t planes, std::int64_t area,
                              const T* dy, T* dx);
void round_storage(cudaStream_t stream, std::int64_t count, float* values,
                   StorageRounding rounding);
// Sets *overflow to 1 when an element is NaN or infinite (the flag is not cleared): the
// f32 overflow flag of Backend::flag_non_finite.
template <typename T>
void flag_non_finite(cudaStream_t stream, std::int64_t count, const T* values, float* overflow);

}  // namespace trainscope::workloads::cuda::kernels
