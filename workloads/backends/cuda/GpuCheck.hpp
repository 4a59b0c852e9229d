#pragma once

#include "workloads/backends/cuda/GpuError.hpp"

namespace trainscope::workloads::cuda {

// True for CUDNN_STATUS_NOT_SUPPORTED and its cuDNN 9 refinements (_DATA_TYPE, _SHAPE, ...).
inline bool cudnn_not_supported(cudnnStatus_t status) {
    return CUDNN_STATUS_CATEGORY(status) == CUDNN_STATUS_NOT_SUPPORTED;
}

inline cudnnStatus_t cudnn_supported_or_throw(const char* file, int line, const char* call,
                                              cudnnStatus_t status) {
    if (status != CUDNN_STATUS_SUCCESS && !cudnn_not_supported(status)) {
        throw_cudnn_error(file, line, call, status);
    }
    return status;
}

}  // namespace trainscope::workloads::cuda

// One checking macro per library, TS_<LIBRARY>_CHECK(call), as for CUPTI, NVML and
// SQLite in the profiler: each evaluates the call once and, on failure, throws the
// library's LibraryError subclass through throw_<library>_error(file, line, call, status).
#define TS_CUDA_CHECK(call)                                                            \
    do {                                                                               \
        const cudaError_t ts_status_ = (call);                                         \
        if (ts_status_ != cudaSuccess) {                                               \
            ::trainscope::workloads::cuda::throw_cuda_error(__FILE__, __LINE__, #call, \
                                                            ts_status_);               \
        }                                                                              \
    } while (false)

#define TS_CUDNN_CHECK(call)                                                            \
    do {                                                                                \
        const cudnnStatus_t ts_status_ = (call);                                        \
        if (ts_status_ != CUDNN_STATUS_SUCCESS) {                                       \
            ::trainscope::workloads::cuda::throw_cudnn_error(__FILE__, __LINE__, #call, \
                                                             ts_status_);               \
        }                                                                               \
    } while (false)

// For calls with an own-kernel fallback: evaluates to the status when it is success or in
// cuDNN's NOT_SUPPORTED category (3000-3999), throws like TS_CUDNN_CHECK otherwise.
#define TS_CUDNN_CHECK_SUPPORTED(call) \
    ::trainscope::workloads::cuda::cudnn_supported_or_throw(__FILE__, __LINE__, #call, (call))

#define TS_CUBLAS_CHECK(call)                                                            \
    do {                                                                                 \
        const cublasStatus_t ts_status_ = (call);                                        \
        if (ts_status_ != CUBLAS_STATUS_SUCCESS) {                                       \
            ::trainscope::workloads::cuda::throw_cublas_error(__FILE__, __LINE__, #call, \
                                                              ts_status_);               \
        }                                                                                \
    } while (false)

// The _NOEXCEPT twins, for destructors and deleters only: each evaluates the call once,
// logs a failure to stderr in the same words, and yields whether the call succeeded.
#define TS_CUDA_CHECK_NOEXCEPT(call) \
    ::trainscope::workloads::cuda::log_cuda_error(__FILE__, __LINE__, #call, (call))

#define TS_CUDNN_CHECK_NOEXCEPT(call) \
    ::trainscope::workloads::cuda::log_cudnn_error(__FILE__, __LINE__, #call, (call))

#define TS_CUBLAS_CHECK_NOEXCEPT(call) \
    ::trainscope::workloads::cuda::log_cublas_error(__FILE__, __LINE__, #call, (call))
