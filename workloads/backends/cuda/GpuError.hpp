#pragma once

#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <cudnn_graph.h>

#include "common/LibraryError.hpp"

namespace trainscope::workloads::cuda {

// A failed CUDA, cuDNN or cuBLAS call (common/LibraryError.hpp): the call as written,
// where it was made, the library's own description of the status and its numeric code,
// so a report from a GPU machine is actionable without a debugger.
class CudaError final : public LibraryError {
  public:
    CudaError(const char* file, int line, const char* call, cudaError_t status);
};

class CudnnError final : public LibraryError {
  public:
    CudnnError(const char* file, int line, const char* call, cudnnStatus_t status);
};

class CublasError final : public LibraryError {
  public:
    CublasError(const char* file, int line, const char* call, cublasStatus_t status);
};

[[noreturn]] void throw_cuda_error(const char* file, int line, const char* call,
                                   cudaError_t status);
[[noreturn]] void throw_cudnn_error(const char* file, int line, const char* call,
                                    cudnnStatus_t status);
[[noreturn]] void throw_cublas_error(const char* file, int line, const char* call,
                                     cublasStatus_t status);

// For destructors and deleters, which must not throw: a failure goes to stderr. Each
// returns whether the call succeeded.
bool log_cuda_error(const char* file, int line, const char* call, cudaError_t status) noexcept;
bool log_cudnn_error(const char* file, int line, const char* call, cudnnStatus_t status) noexcept;
bool log_cublas_error(const char* file, int line, const char* call, cublasStatus_t status) noexcept;

}  // namespace trainscope::workloads::cuda
