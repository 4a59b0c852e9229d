#pragma once

#include "workloads/backend/FloatTypeDispatch.hpp"
#include "workloads/backends/cuda/kernels/StorageMath.hpp"
#include "workloads/tensor/Tensor.hpp"

namespace trainscope::workloads::cuda {

inline constexpr const char* kBackend = "cuda backend";

// Runs body with the tensor's storage type: float, double, or the 16-bit storage structs
// (fp16/bf16 runs keep activations, gradients and weight copies in 16 bits). Shared by
// the CudaBackend*.cpp files.
template <typename Body>
void with_storage_type(const Tensor& tensor, const char* op, const Body& body) {
    with_float_type<math::Fp16, math::Bf16>(tensor.dtype(), kBackend, op, body);
}

}  // namespace trainscope::workloads::cuda
