#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "workloads/backends/cuda/kernels/LossMath.hpp"

namespace trainscope::workloads::cuda::kernels {

// One thread per row writes that row's loss term and prediction into rows_out[rows];
// the backend sums them on the host in row order, as the CPU backend does.
template <typename T>
void softmax_cross_entropy(cudaStream_t stream, std::int64_t rows, std::int64_t classes,
                           const T* logits, const std::int32_t* labels, double gradient_scale,
                           T* dlogits, math::CrossEntropyRow* rows_out);

}  // namespace trainscope::workloads::cuda::kernels
