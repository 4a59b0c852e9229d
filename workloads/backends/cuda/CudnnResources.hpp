#pragma once

#include <cudnn_graph.h>
#include <cudnn_ops.h>

#include <memory>
#include <type_traits>

#include "workloads/backends/cuda/GpuCheck.hpp"

// Move-only owners of the cuDNN handle and the (non-deprecated) tensor descriptor. The
// deprecated filter and convolution descriptors live in CudnnLegacyAdapter.cpp only.
namespace trainscope::workloads::cuda {

struct CudnnHandleDeleter {
    using pointer = cudnnHandle_t;
    void operator()(cudnnHandle_t handle) const noexcept {
        TS_CUDNN_CHECK_NOEXCEPT(cudnnDestroy(handle));
    }
};
using CudnnHandle = std::unique_ptr<std::remove_pointer_t<cudnnHandle_t>, CudnnHandleDeleter>;

struct TensorDescriptorDeleter {
    using pointer = cudnnTensorDescriptor_t;
    void operator()(cudnnTensorDescriptor_t descriptor) const noexcept {
        TS_CUDNN_CHECK_NOEXCEPT(cudnnDestroyTensorDescriptor(descriptor));
    }
};
using CudnnTensorDescriptor =
    std::unique_ptr<std::remove_pointer_t<cudnnTensorDescriptor_t>, TensorDescriptorDeleter>;

inline CudnnHandle make_cudnn_handle() {
    cudnnHandle_t handle = nullptr;
    TS_CUDNN_CHECK(cudnnCreate(&handle));
    return CudnnHandle(handle);
}

inline CudnnTensorDescriptor make_tensor_descriptor(cudnnDataType_t type, int n, int c, int h,
                                                    int w) {
    cudnnTensorDescriptor_t raw = nullptr;
    TS_CUDNN_CHECK(cudnnCreateTensorDescriptor(&raw));
    CudnnTensorDescriptor descriptor(raw);
    TS_CUDNN_CHECK(cudnnSetTensor4dDescriptor(raw, CUDNN_TENSOR_NCHW, type, n, c, h, w));
    return descriptor;
}

}  // namespace trainscope::workloads::cuda
