#pragma once

#include <cudnn_graph.h>

#include <memory>

// Pooling and ReLU through cuDNN's legacy (deprecated in cuDNN 9) API, the sibling of
// CudnnLegacyAdapter.cpp with the same silencing; see docs/cuda-backend.md. Nothing
// deprecated appears in this header. Each call returns CUDNN_STATUS_SUCCESS or a status of
// the NOT_SUPPORTED category (the caller then runs its own kernels); any other failure
// throws CudnnError.
namespace trainscope::workloads::cuda {

enum class PoolKind { max, average };

// x [n,c,h,w] -> y [n,c,p,q], square window, NCHW, one data type for x, y, dy and dx.
struct PoolProblem {
    int n, c, h, w, p, q;
    int window, stride, padding;
    PoolKind kind;
    cudnnDataType_t data_type;
};

// An element-wise activation on a tensor viewed as NCHW [n,c,h,w] (all of x, y, dy, dx).
struct ActivationProblem {
    int n, c, h, w;
    cudnnDataType_t data_type;
};

// The descriptors of every pooling and activation problem met, made at its first call
// and reused by every later one (keyed by the problem's integers, DescriptorKey.hpp).
// One per cuDNN user (the backend); not thread-safe, like the handle it serves.
class CudnnPoolingDescriptors {
  public:
    CudnnPoolingDescriptors();
    ~CudnnPoolingDescriptors();
    CudnnPoolingDescriptors(const CudnnPoolingDescriptors&) = delete;
    CudnnPoolingDescriptors& operator=(const CudnnPoolingDescriptors&) = delete;

    struct Cache;  // CudnnLegacyPooling.cpp: the deprecated descriptor types stay there
    Cache& cache() { return *cache_; }

  private:
    std::unique_ptr<Cache> cache_;
};

// The cuDNN names of what these calls configure, for the environment and the tests:
// max -> CUDNN_POOLING_MAX_DETERMINISTIC, average ->
// CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING; NaN rule CUDNN_NOT_PROPAGATE_NAN.
const char* cudnn_pooling_mode_name(PoolKind kind);
const char* cudnn_nan_rule_name();

// y = pool(x). Throws std::logic_error when cuDNN's output extent
// (cudnnGetPooling2dForwardOutputDim) differs from problem.p x problem.q.
cudnnStatus_t cudnn_pooling_forward(cudnnHandle_t handle, CudnnPoolingDescriptors& descriptors,
                                    const PoolProblem& problem, const void* x, void* y);
// dx from dy; y is the forward output for x (max pooling finds its maxima by it). Average
// pooling reads neither values: callers without x/y pass same-shaped stand-ins.
cudnnStatus_t cudnn_pooling_backward(cudnnHandle_t handle, CudnnPoolingDescriptors& descriptors,
                                     const PoolProblem& problem, const void* y, const void* dy,
                                     const void* x, void* dx);

// y = max(x, 0) (CUDNN_ACTIVATION_RELU, coef 0).
cudnnStatus_t cudnn_relu_forward(cudnnHandle_t handle, CudnnPoolingDescriptors& descriptors,
                                 const ActivationProblem& problem, const void* x, void* y);
// dx = dy where y > 0. The Backend hands no x; y is passed for x as well (relu(y) = y and
// y > 0 exactly where x > 0).
cudnnStatus_t cudnn_relu_backward(cudnnHandle_t handle, CudnnPoolingDescriptors& descriptors,
                                  const ActivationProblem& problem, const void* y, const void* dy,
                                  void* dx);

}  // namespace trainscope::workloads::cuda
