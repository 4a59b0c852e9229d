#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "workloads/backends/cuda/kernels/OptimizerMath.hpp"

namespace trainscope::workloads::cuda::kernels {

template <typename T>
void sgd_update(cudaStream_t stream, std::int64_t count, const math::SgdConstants<T>& constants,
                T* parameter, const T* gradient, T* velocity);
template <typename T>
void adam_update(cudaStream_t stream, std::int64_t count, const math::AdamConstants<T>& constants,
                 T* parameter, const T* gradient, T* first_moment, T* second_moment);

}  // namespace trainscope::workloads::cuda::kernels
