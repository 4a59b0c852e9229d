#pragma once

#include <cuda_runtime_api.h>

#include "workloads/backends/cuda/kernels/MultiTensorList.hpp"
#include "workloads/backends/cuda/kernels/OptimizerMath.hpp"
#include "workloads/backends/cuda/kernels/StorageMath.hpp"

// One launch per TensorList (nothing for an empty one) doing for every listed tensor what
// the single-tensor kernel of the same name does, with the same per-element math, so the
// results are bit for bit those of one launch per tensor. T is the master type (float,
// double), G the gradient's storage type (OptimizerKernels.hpp).
namespace trainscope::workloads::cuda::kernels {

// Addresses per tensor: parameter, gradient, first moment, second moment. constants is
// used when device_constants is null; a step captured into a CUDA graph passes the device
// block StepGraph refreshes before every replay (CapturedOptimizerKernels.hpp).
template <typename T, typename G>
void adam_update_multi(cudaStream_t stream, const TensorList<4>& list,
                       const math::AdamConstants<T>& constants,
                       const math::AdamConstants<T>* device_constants,
                       const float* skip_if_overflow);
// Addresses per tensor: parameter, gradient, velocity.
template <typename T, typename G>
void sgd_update_multi(cudaStream_t stream, const TensorList<3>& list,
                      const math::SgdConstants<T>& constants, const float* skip_if_overflow);
// Addresses per tensor: the values (storage type T). Sets *overflow to 1 on a NaN or inf.
template <typename T>
void flag_non_finite_multi(cudaStream_t stream, const TensorList<1>& list, float* overflow);
// Addresses per tensor: source (From), destination (To).
template <typename To, typename From>
void convert_multi(cudaStream_t stream, const TensorList<2>& list);

}  // namespace trainscope::workloads::cuda::kernels
