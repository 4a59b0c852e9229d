#include "workloads/backends/cuda/GpuError.hpp"

#include <cublas_v2.h>
#include <cudnn.h>

#include <cstdio>

namespace trainscope::workloads::cuda {
namespace {

std::string describe(const char* library, const char* file, int line, const char* call,
                     const char* status_text, int code) {
    return std::string(library) + " call `" + call + "` failed at " + file + ":" +
           std::to_string(line) + ": " + (status_text != nullptr ? status_text : "unknown") +
           " (code " + std::to_string(code) + ")";
}

}  // namespace

void throw_cuda_error(const char* file, int line, const char* call, cudaError_t status) {
    throw CudaError(
        describe("CUDA", file, line, call, cudaGetErrorString(status), static_cast<int>(status)),
        static_cast<int>(status));
}

void throw_cudnn_error(const char* file, int line, const char* call, cudnnStatus_t status) {
    throw CudnnError(
        describe("cuDNN", file, line, call, cudnnGetErrorString(status), static_cast<int>(status)),
        static_cast<int>(status));
}

void throw_cublas_error(const char* file, int line, const char* call, cublasStatus_t status) {
    throw CublasError(describe("cuBLAS", file, line, call, cublasGetStatusString(status),
                               static_cast<int>(status)),
                      static_cast<int>(status));
}

void log_cuda_error(const char* file, int line, const char* call, cudaError_t status) noexcept {
    std::fprintf(stderr, "trainscope: CUDA call `%s` failed at %s:%d: %s (code %d)\n", call, file,
                 line, cudaGetErrorString(status), static_cast<int>(status));
}

void log_cudnn_error(const char* file, int line, const char* call, cudnnStatus_t status) noexcept {
    std::fprintf(stderr, "trainscope: cuDNN call `%s` failed at %s:%d: %s (code %d)\n", call, file,
                 line, cudnnGetErrorString(status), static_cast<int>(status));
}

void log_cublas_error(const char* file, int line, const char* call,
                      cublasStatus_t status) noexcept {
    std::fprintf(stderr, "trainscope: cuBLAS call `%s` failed at %s:%d: %s (code %d)\n", call, file,
                 line, cublasGetStatusString(status), static_cast<int>(status));
}

}  // namespace trainscope::workloads::cuda
