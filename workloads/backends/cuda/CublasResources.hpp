#pragma once

#include <cublas_v2.h>

#include <memory>
#include <type_traits>

#include "workloads/backends/cuda/GpuCheck.hpp"

namespace trainscope::workloads::cuda {

struct CublasHandleDeleter {
    using pointer = cublasHandle_t;
    void operator()(cublasHandle_t handle) const noexcept {
        TS_CUBLAS_CHECK_NOEXCEPT(cublasDestroy(handle));
    }
};
using CublasHandle = std::unique_ptr<std::remove_pointer_t<cublasHandle_t>, CublasHandleDeleter>;

inline CublasHandle make_cublas_handle() {
    cublasHandle_t handle = nullptr;
    TS_CUBLAS_CHECK(cublasCreate(&handle));
    CublasHandle owner(handle);
    // Said, not assumed: with CUBLAS_DEFAULT_MATH, CUBLAS_COMPUTE_32F keeps at least fp32's
    // mantissa (no TF32); only CUBLAS_TF32_TENSOR_OP_MATH would let TF32 in
    // (docs/cuda-backend.md, "fp32 GEMM").
    TS_CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
    return owner;
}

}  // namespace trainscope::workloads::cuda
