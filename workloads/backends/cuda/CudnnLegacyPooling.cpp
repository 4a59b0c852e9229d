// cuDNN 9 marks the legacy pooling and activation API deprecated (warnings appear when
// CUDNN_WARN_DEPRECATED is defined). This file and CudnnLegacyAdapter.cpp are its only
// users, so the warning is silenced here alone.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "workloads/backends/cuda/CudnnLegacyPooling.hpp"

#include <cudnn.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "workloads/backends/cuda/CudnnResources.hpp"
#include "workloads/backends/cuda/CudnnScaling.hpp"
#include "workloads/backends/cuda/DescriptorKey.hpp"
#include "workloads/backends/cuda/TensorProblems.hpp"

namespace trainscope::workloads::cuda {
namespace {

struct PoolingDescriptorDeleter {
    using pointer = cudnnPoolingDescriptor_t;
    void operator()(cudnnPoolingDescriptor_t descriptor) const noexcept {
        TS_CUDNN_CHECK_NOEXCEPT(cudnnDestroyPoolingDescriptor(descriptor));
    }
};
using CudnnPoolingDescriptor =
    std::unique_ptr<std::remove_pointer_t<cudnnPoolingDescriptor_t>, PoolingDescriptorDeleter>;

struct ActivationDescriptorDeleter {
    using pointer = cudnnActivationDescriptor_t;
    void operator()(cudnnActivationDescriptor_t descriptor) const noexcept {
        TS_CUDNN_CHECK_NOEXCEPT(cudnnDestroyActivationDescriptor(descriptor));
    }
};
using CudnnActivationDescriptor =
    std::unique_ptr<std::remove_pointer_t<cudnnActivationDescriptor_t>,
                    ActivationDescriptorDeleter>;

// The CPU backend and the own kernels compare with a strict `>`: a NaN never wins a max
// window and ReLU maps NaN to 0. NOT_PROPAGATE is cuDNN's name for not forwarding NaN.
constexpr cudnnNanPropagation_t kNanRule = CUDNN_NOT_PROPAGATE_NAN;

cudnnPoolingMode_t pooling_mode(PoolKind kind) {
    // MAX_DETERMINISTIC: cuDNN's max mode named deterministic (the plain MAX mode makes no
    // such promise), so a run repeats bit for bit like the rest of this backend.
    // AVERAGE_COUNT_INCLUDE_PADDING: the Backend contract's count_include_pad.
    return kind == PoolKind::max ? CUDNN_POOLING_MAX_DETERMINISTIC
                                 : CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
}

// The descriptors of one pooling problem, built at its first call.
struct PoolingCall {
    explicit PoolingCall(const PoolProblem& problem) {
        x = make_tensor_descriptor(problem.data_type, problem.n, problem.c, problem.h, problem.w);
        y = make_tensor_descriptor(problem.data_type, problem.n, problem.c, problem.p, problem.q);
        cudnnPoolingDescriptor_t raw = nullptr;
        TS_CUDNN_CHECK(cudnnCreatePoolingDescriptor(&raw));
        pooling.reset(raw);
        TS_CUDNN_CHECK(cudnnSetPooling2dDescriptor(
            raw, pooling_mode(problem.kind), kNanRule, problem.window, problem.window,
            problem.padding, problem.padding, problem.stride, problem.stride));
        // cuDNN's extent is 1 + (in + 2 padding - window) / stride, the engine's floor
        // formula; anything else means the engine and cuDNN disagree on the geometry.
        int n = 0;
        int c = 0;
        int p = 0;
        int q = 0;
        TS_CUDNN_CHECK(cudnnGetPooling2dForwardOutputDim(raw, x.get(), &n, &c, &p, &q));
        const std::string mismatch = pool_extent_mismatch(problem, p, q);
        if (!mismatch.empty()) {
            throw std::logic_error(mismatch);
        }
    }

    CudnnTensorDescriptor x;
    CudnnTensorDescriptor y;
    CudnnPoolingDescriptor pooling;
};

struct ReluCall {
    explicit ReluCall(const ActivationProblem& problem) {
        data =
            make_tensor_descriptor(problem.data_type, problem.n, problem.c, problem.h, problem.w);
        cudnnActivationDescriptor_t raw = nullptr;
        TS_CUDNN_CHECK(cudnnCreateActivationDescriptor(&raw));
        activation.reset(raw);
        TS_CUDNN_CHECK(cudnnSetActivationDescriptor(raw, CUDNN_ACTIVATION_RELU, kNanRule, 0.0));
    }

    CudnnTensorDescriptor data;  // x, y, dy and dx share it
    CudnnActivationDescriptor activation;
};

DescriptorKey<11> pool_key(const PoolProblem& p) {
    return {{p.n, p.c, p.h, p.w, p.p, p.q, p.window, p.stride, p.padding, static_cast<int>(p.kind),
             static_cast<int>(p.data_type)}};
}

DescriptorKey<5> activation_key(const ActivationProblem& p) {
    return {{p.n, p.c, p.h, p.w, static_cast<int>(p.data_type)}};
}

}  // namespace

struct CudnnPoolingDescriptors::Cache {
    DescriptorCache<11, PoolingCall> pooling;
    DescriptorCache<5, ReluCall> relu;

    const PoolingCall& get(const PoolProblem& problem) {
        const DescriptorKey<11> key = pool_key(problem);
        const auto found = pooling.find(key);
        return found != pooling.end() ? found->second
                                      : pooling.try_emplace(key, problem).first->second;
    }
    const ReluCall& get(const ActivationProblem& problem) {
        const DescriptorKey<5> key = activation_key(problem);
        const auto found = relu.find(key);
        return found != relu.end() ? found->second : relu.try_emplace(key, problem).first->second;
    }
};

CudnnPoolingDescriptors::CudnnPoolingDescriptors() : cache_(std::make_unique<Cache>()) {}
CudnnPoolingDescriptors::~CudnnPoolingDescriptors() = default;

const char* cudnn_pooling_mode_name(PoolKind kind) {
    return kind == PoolKind::max ? "CUDNN_POOLING_MAX_DETERMINISTIC"
                                 : "CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING";
}

const char* cudnn_nan_rule_name() {
    return "CUDNN_NOT_PROPAGATE_NAN";
}

cudnnStatus_t cudnn_pooling_forward(cudnnHandle_t handle, CudnnPoolingDescriptors& descriptors,
                                    const PoolProblem& problem, const void* x, void* y) {
    const PoolingCall& call = descriptors.cache().get(problem);
    const Scaling scaling(problem.data_type);
    return TS_CUDNN_CHECK_SUPPORTED(cudnnPoolingForward(handle, call.pooling.get(), scaling.one(),
                                                        call.x.get(), x, scaling.zero(),
                                                        call.y.get(), y));
}

cudnnStatus_t cudnn_pooling_backward(cudnnHandle_t handle, CudnnPoolingDescriptors& descriptors,
                                     const PoolProblem& problem, const void* y, const void* dy,
                                     const void* x, void* dx) {
    const PoolingCall& call = descriptors.cache().get(problem);
    const Scaling scaling(problem.data_type);
    return TS_CUDNN_CHECK_SUPPORTED(
        cudnnPoolingBackward(handle, call.pooling.get(), scaling.one(), call.y.get(), y,
                             call.y.get(), dy, call.x.get(), x, scaling.zero(), call.x.get(), dx));
}

cudnnStatus_t cudnn_relu_forward(cudnnHandle_t handle, CudnnPoolingDescriptors& descriptors,
                                 const ActivationProblem& problem, const void* x, void* y) {
    const ReluCall& call = descriptors.cache().get(problem);
    const Scaling scaling(problem.data_type);
    return TS_CUDNN_CHECK_SUPPORTED(cudnnActivationForward(handle, call.activation.get(),
                                                           scaling.one(), call.data.get(), x,
                                                           scaling.zero(), call.data.get(), y));
}

cudnnStatus_t cudnn_relu_backward(cudnnHandle_t handle, CudnnPoolingDescriptors& descriptors,
                                  const ActivationProblem& problem, const void* y, const void* dy,
                                  void* dx) {
    const ReluCall& call = descriptors.cache().get(problem);
    const Scaling scaling(problem.data_type);
    return TS_CUDNN_CHECK_SUPPORTED(cudnnActivationBackward(
        handle, call.activation.get(), scaling.one(), call.data.get(), y, call.data.get(), dy,
        call.data.get(), y, scaling.zero(), call.data.get(), dx));
}

}  // namespace trainscope::workloads::cuda

#pragma GCC diagnostic pop
