#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/backends/cuda/kernels/StorageMath.hpp"

// This backend's own batch normalization (per channel over N, H, W of NCHW; [N, C] is
// area 1), used for bf16 storage instead of cuDNN's (docs/cuda-backend.md). S is the
// storage type of x, y, dy, dx (float, math::Fp16, math::Bf16); gamma, beta, the running
// and saved statistics, dgamma and dbeta are float. Elements are loaded exactly into
// float, summed in float, and every result is rounded once when stored. Each call is a
// statistics pass over a (slice, channel) grid that fills the device, one warp per
// channel adding the slices in a fixed order (ChannelReductionMath.hpp; no atomics, so a
// launch repeats its results bit for bit), and an element-wise pass over the whole
// tensor. The math is BatchNormMath.hpp's, which the CPU tests check against the CPU
// backend. `workspace` is device memory of batch_norm_workspace_bytes(shape), used on
// `stream` only.
namespace trainscope::workloads::cuda::kernels {

struct BatchNormShape {
    std::int64_t n, channels, area;
};

// Per-(channel, slice) sums and per-channel coefficients, for any of the three calls.
std::size_t batch_norm_workspace_bytes(const BatchNormShape& shape);

// Normalizes with the batch statistics, saves the mean and 1 / sqrt(var + eps), and
// blends mean and unbiased variance into the running statistics when update_running.
template <typename S>
void batch_norm_forward_training(cudaStream_t stream, const BatchNormShape& shape, const S* x,
                                 const float* gamma, const float* beta, S* y, float* running_mean,
                                 float* running_var, float* saved_mean, float* saved_inv_std,
                                 const BatchNormSettings& settings, bool update_running,
                                 void* workspace);
template <typename S>
void batch_norm_forward_inference(cudaStream_t stream, const BatchNormShape& shape, const S* x,
                                  const float* gamma, const float* beta, const float* running_mean,
                                  const float* running_var, S* y, const BatchNormSettings& settings,
                                  void* workspace);
template <typename S>
void batch_norm_backward(cudaStream_t stream, const BatchNormShape& shape, const S* x, const S* dy,
                         const float* gamma, const float* saved_mean, const float* saved_inv_std,
                         S* dx, float* dgamma, float* dbeta, void* workspace);

}  // namespace trainscope::workloads::cuda::kernels
