#pragma once

#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <cudnn_graph.h>

#include <stdexcept>
#include <string>

namespace trainscope::workloads::cuda {

// A failed CUDA, cuDNN or cuBLAS call. The message names the call as written, where it
// was made, the library's own description of the status and its numeric code, so a
// report from a GPU machine is actionable without a debugger.
class GpuError : public std::runtime_error {
  public:
    GpuError(const std::string& message, int code) : std::runtime_error(message), code_(code) {}
    int code() const { return code_; }

  private:
    int code_;
};

class CudaError final : public GpuError {
  public:
    using GpuError::GpuError;
};

class CudnnError final : public GpuError {
  public:
    using GpuError::GpuError;
};

class CublasError final : public GpuError {
  public:
    using GpuError::GpuError;
};

[[noreturn]] void throw_cuda_error(const char* file, int line, const char* call,
                                   cudaError_t status);
[[noreturn]] void throw_cudnn_error(const char* file, int line, const char* call,
                                    cudnnStatus_t status);
[[noreturn]] void throw_cublas_error(const char* file, int line, const char* call,
                                     cublasStatus_t status);

// For destructors and deleters, which must not throw: the failure goes to stderr.
void log_cuda_error(const char* file, int line, const char* call, cudaError_t status) noexcept;
void log_cudnn_error(const char* file, int line, const char* call, cudnnStatus_t status) noexcept;
void log_cublas_error(const char* file, int line, const char* call, cublasStatus_t status) noexcept;

}  // namespace trainscope::workloads::cuda
