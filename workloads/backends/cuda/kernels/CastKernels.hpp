#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "workloads/backends/cuda/kernels/StorageMath.hpp"

// Element-wise conversion between storage types (Backend::convert): the fp32 master
// weights into their 16-bit compute copies after every update, f32 input batches into
// the storage dtype. Instantiated for every pair of float, double, math::Fp16, math::Bf16.
namespace trainscope::workloads::cuda::kernels {

template <typename To, typename From>
void convert(cudaStream_t stream, std::int64_t count, const From* source, To* destination);

}  // namespace trainscope::workloads::cuda::kernels
