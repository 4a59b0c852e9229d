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
    return CublasHandle(handle);
}

}  // namespace trainscope::workloads::cuda
