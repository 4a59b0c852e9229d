#pragma once

#include <cuda_runtime_api.h>

#include <string>

// Why a `gpu` test cannot run here, or empty when a CUDA device is present.
inline std::string missing_cuda_device() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        cudaGetLastError();
        return std::string("no CUDA device: ") + cudaGetErrorString(status);
    }
    return count > 0 ? std::string() : std::string("no CUDA device: cudaGetDeviceCount found 0");
}

#define TS_SKIP_WITHOUT_CUDA_DEVICE()                          \
    do {                                                       \
        const std::string ts_missing_ = missing_cuda_device(); \
        if (!ts_missing_.empty()) {                            \
            GTEST_SKIP() << ts_missing_;                       \
        }                                                      \
    } while (false)
