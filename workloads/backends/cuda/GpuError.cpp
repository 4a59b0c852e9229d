#include "workloads/backends/cuda/GpuError.hpp"

#include <cublas_v2.h>
#include <cudnn.h>

namespace trainscope::workloads::cuda {

namespace {
constexpr const char* kCuda = "CUDA";
constexpr const char* kCudnn = "cuDNN";
constexpr const char* kCublas = "cuBLAS";

// The libraries' own texts; a status they do not know reads as null.
const char* text_of(cudaError_t status) {
    return cudaGetErrorString(status);
}
const char* text_of(cudnnStatus_t status) {
    return cudnnGetErrorString(status);
}
const char* text_of(cublasStatus_t status) {
    return cublasGetStatusString(status);
}
std::string words(const char* text) {
    return text != nullptr ? text : "";
}
}  // namespace

CudaError::CudaError(const char* file, int line, const char* call, cudaError_t status)
    : LibraryError(kCuda, file, line, call, words(text_of(status)), static_cast<int>(status)) {}

CudnnError::CudnnError(const char* file, int line, const char* call, cudnnStatus_t status)
    : LibraryError(kCudnn, file, line, call, words(text_of(status)), static_cast<int>(status)) {}

CublasError::CublasError(const char* file, int line, const char* call, cublasStatus_t status)
    : LibraryError(kCublas, file, line, call, words(text_of(status)), static_cast<int>(status)) {}

void throw_cuda_error(const char* file, int line, const char* call, cudaError_t status) {
    throw CudaError(file, line, call, status);
}

void throw_cudnn_error(const char* file, int line, const char* call, cudnnStatus_t status) {
    throw CudnnError(file, line, call, status);
}

void throw_cublas_error(const char* file, int line, const char* call, cublasStatus_t status) {
    throw CublasError(file, line, call, status);
}

bool log_cuda_error(const char* file, int line, const char* call, cudaError_t status) noexcept {
    const char* text = text_of(status);
    return status == cudaSuccess ||
           log_library_failure(kCuda, file, line, call, text != nullptr ? text : "",
                               static_cast<int>(status));
}

bool log_cudnn_error(const char* file, int line, const char* call, cudnnStatus_t status) noexcept {
    const char* text = text_of(status);
    return status == CUDNN_STATUS_SUCCESS ||
           log_library_failure(kCudnn, file, line, call, text != nullptr ? text : "",
                               static_cast<int>(status));
}

bool log_cublas_error(const char* file, int line, const char* call,
                      cublasStatus_t status) noexcept {
    const char* text = text_of(status);
    return status == CUBLAS_STATUS_SUCCESS ||
           log_library_failure(kCublas, file, line, call, text != nullptr ? text : "",
                               static_cast<int>(status));
}

}  // namespace trainscope::workloads::cuda
