#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "workloads/backends/cuda/kernels/OptimizerMath.hpp"
#include "workloads/backends/cuda/kernels/StorageMath.hpp"

namespace trainscope::workloads::cuda::kernels {

// T: the master parameter and state type (float, double); G: the gradient's storage
// type (T, or math::Fp16 / math::Bf16 next to float masters), read exactly into T.
// skip_if_overflow: null, or the step's f32 overflow flag (Backend::flag_non_finite);
// when it holds nonzero every thread returns before touching anything.
template <typename T, typename G>
void sgd_update(cudaStream_t stream, std::int64_t count, const math::SgdConstants<T>& constants,
                T* parameter, const G* gradient, T* velocity, const float* skip_if_overflow);
template <typename T, typename G>
void adam_update(cudaStream_t stream, std::int64_t count, const math::AdamConstants<T>& constants,
                 T* parameter, const G* gradient, T* first_moment, T* second_moment,
                 const float* skip_if_overflow);

}  // namespace trainscope::workloads::cuda::kernels
