#pragma once

#include "workloads/backends/cuda/GpuError.hpp"

// One checking macro per library. Each evaluates the call once and, on failure, throws
// the library's typed error (or, in the _NOEXCEPT twins used only by destructors and
// deleters, logs it).
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

#define TS_CUBLAS_CHECK(call)                                                            \
    do {                                                                                 \
        const cublasStatus_t ts_status_ = (call);                                        \
        if (ts_status_ != CUBLAS_STATUS_SUCCESS) {                                       \
            ::trainscope::workloads::cuda::throw_cublas_error(__FILE__, __LINE__, #call, \
                                                              ts_status_);               \
        }                                                                                \
    } while (false)

#define TS_CUDA_CHECK_NOEXCEPT(call)                                                              \
    do {                                                                                          \
        const cudaError_t ts_status_ = (call);                                                    \
        if (ts_status_ != cudaSuccess) {                                                          \
            ::trainscope::workloads::cuda::log_cuda_error(__FILE__, __LINE__, #call, ts_status_); \
        }                                                                                         \
    } while (false)

#define TS_CUDNN_CHECK_NOEXCEPT(call)                                                              \
    do {                                                                                           \
        const cudnnStatus_t ts_status_ = (call);                                                   \
        if (ts_status_ != CUDNN_STATUS_SUCCESS) {                                                  \
            ::trainscope::workloads::cuda::log_cudnn_error(__FILE__, __LINE__, #call, ts_status_); \
        }                                                                                          \
    } while (false)

#define TS_CUBLAS_CHECK_NOEXCEPT(call)                                                 \
    do {                                                                               \
        const cublasStatus_t ts_status_ = (call);                                      \
        if (ts_status_ != CUBLAS_STATUS_SUCCESS) {                                     \
            ::trainscope::workloads::cuda::log_cublas_error(__FILE__, __LINE__, #call, \
                                                            ts_status_);               \
        }                                                                              \
    } while (false)
