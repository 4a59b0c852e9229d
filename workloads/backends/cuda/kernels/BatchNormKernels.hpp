#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/backends/cuda/kernels/StorageMath.hpp"

// This backend's own batch normalization (per channel over N, H, W of NCHW; [N, C] is
// area 1), used for bf16 storage instead of cuDNN's (docs/cuda-backend.md). S is the
// storage type of x, y, dy, dx (float, math::Fp16, math::Bf16); gamma, beta, the running
// and saved statistics, dgamma and dbeta are float. Elements are loaded exactly into
// float, summed in float, and every result is rounded once when stored. One block per
// channel reduces in a fixed order (each thread a fixed stride, then a tree in shared
// memory; no atomics), so a launch repeats its results bit for bit. The math is
// BatchNormMath.hpp's, which the CPU tests check against the CPU backend.
namespace trainscope::workloads::cuda::kernels {

struct BatchNormShape {
    std::int64_t n, channels, area;
};

// Normalizes with the batch statistics, saves the mean and 1 / sqrt(var + eps), and
// blends mean and unbiased variance into the running statistics when update_running.
template <typename S>
void batch_norm_forward_training(cudaStream_t stream, const BatchNormShape& shape, const S* x,
                                 const float* gamma, const float* beta, S* y, float* running_mean,
                                 float* running_var, float* saved_mean, float* saved_inv_std,
                                 const BatchNormSettings& settings, bool update_running);
template <typename S>
void batch_norm_forward_inference(cudaStream_t stream, const BatchNormShape& shape, const S* x,
                                  const float* gamma, const float* beta, const float* running_mean,
                                  const float* running_var, S* y,
                                  const BatchNormSettings& settings);
template <typename S>
void batch_norm_backward(cudaStream_t stream, const BatchNormShape& shape, const S* x, const S* dy,
                         const float* gamma, const float* saved_mean, const float* saved_inv_std,
                         S* dx, float* dgamma, float* dbeta);

}  // namespace trainscope::workloads::cuda::kernels
