// cuDNN 9 marks the legacy convolution and batch-norm API deprecated (warnings appear
// when CUDNN_WARN_DEPRECATED is defined). This file and CudnnLegacyPooling.cpp are its
// only users, so the warning is silenced in those two alone.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "workloads/backends/cuda/CudnnLegacyAdapter.hpp"

#include <cudnn.h>

#include <array>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "workloads/backends/cuda/CudnnResources.hpp"
#include "workloads/backends/cuda/CudnnScaling.hpp"
#include "workloads/backends/cuda/PrecisionSelection.hpp"

namespace trainscope::workloads::cuda {
namespace {

struct FilterDescriptorDeleter {
    using pointer = cudnnFilterDescriptor_t;
    void operator()(cudnnFilterDescriptor_t descriptor) const noexcept {
        TS_CUDNN_CHECK_NOEXCEPT(cudnnDestroyFilterDescriptor(descriptor));
    }
};
using CudnnFilterDescriptor =
    std::unique_ptr<std::remove_pointer_t<cudnnFilterDescriptor_t>, FilterDescriptorDeleter>;

struct ConvolutionDescriptorDeleter {
    using pointer = cudnnConvolutionDescriptor_t;
    void operator()(cudnnConvolutionDescriptor_t descriptor) const noexcept {
        TS_CUDNN_CHECK_NOEXCEPT(cudnnDestroyConvolutionDescriptor(descriptor));
    }
};
using CudnnConvolutionDescriptor =
    std::unique_ptr<std::remove_pointer_t<cudnnConvolutionDescriptor_t>,
                    ConvolutionDescriptorDeleter>;

const char* direction_name(ConvDirection direction) {
    switch (direction) {
        case ConvDirection::forward:
            return "conv_fwd";
        case ConvDirection::backward_data:
            return "conv_bwd_data";
        case ConvDirection::backward_filter:
            return "conv_bwd_filter";
    }
    return "conv";
}

// fp32 without tensor cores must not pick a tf32 kernel: only FMA-math results qualify.
// Nothing may pick ALLOW_CONVERSION unless asked for it: on fp32 data it lets cuDNN
// down-convert to fp16 inside the convolution, which is not what tf32 means.
bool math_acceptable(cudnnMathType_t requested, cudnnMathType_t offered) {
    if (requested == CUDNN_FMA_MATH) {
        return offered == CUDNN_FMA_MATH;
    }
    return offered != CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION ||
           requested == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
}

}  // namespace

DescriptorKey<13> ConvProblem::compact_key() const {
    return {{n, c, h, w, k, r, s, p, q, stride, padding, static_cast<int>(data_type),
             static_cast<int>(math)}};
}

std::string ConvProblem::key() const {
    return std::to_string(n) + "x" + std::to_string(c) + "x" + std::to_string(h) + "x" +
           std::to_string(w) + "_k" + std::to_string(k) + "x" + std::to_string(r) + "x" +
           std::to_string(s) + "_s" + std::to_string(stride) + "_p" + std::to_string(padding) +
           "_t" + std::to_string(static_cast<int>(data_type)) + "_" + cudnn_math_name(math);
}

// The descriptors of one problem and the algorithm chosen per direction, made at the
// problem's first call and kept by CudnnConvolutions.
struct CudnnConvolutions::Plan {
    Plan(CudnnConvolutions& owner, const ConvProblem& problem) : owner_(owner), problem_(problem) {
        x_ = make_tensor_descriptor(problem.data_type, problem.n, problem.c, problem.h, problem.w);
        y_ = make_tensor_descriptor(problem.data_type, problem.n, problem.k, problem.p, problem.q);
        cudnnFilterDescriptor_t filter = nullptr;
        TS_CUDNN_CHECK(cudnnCreateFilterDescriptor(&filter));
        w_.reset(filter);
        TS_CUDNN_CHECK(cudnnSetFilter4dDescriptor(filter, problem.data_type, CUDNN_TENSOR_NCHW,
                                                  problem.k, problem.c, problem.r, problem.s));
        cudnnConvolutionDescriptor_t convolution = nullptr;
        TS_CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&convolution));
        conv_.reset(convolution);
        // Cross-correlation, like every framework's "convolution". The compute type is the
        // data type for float/double and float for half/bfloat16 data (PSEUDO_HALF_CONFIG,
        // PSEUDO_BFLOAT16_CONFIG: 16-bit tensors, fp32 accumulation on tensor cores).
        TS_CUDNN_CHECK(cudnnSetConvolution2dDescriptor(
            convolution, problem.padding, problem.padding, problem.stride, problem.stride, 1, 1,
            CUDNN_CROSS_CORRELATION, problem.compute_type));
        TS_CUDNN_CHECK(cudnnSetConvolutionMathType(convolution, problem.math));
        descriptor_math_ = problem.math;
    }

    template <typename Perf>
    CudnnConvolutions::Choice pick(ConvDirection direction, const std::vector<Perf>& results,
                                   int returned) const {
        for (int i = 0; i < returned; ++i) {
            const Perf& perf = results[static_cast<std::size_t>(i)];
            if (perf.status == CUDNN_STATUS_SUCCESS &&
                perf.memory <= owner_.policy_.workspace_limit_bytes &&
                math_acceptable(problem_.math, perf.mathType)) {
                return {static_cast<int>(perf.algo), perf.memory, perf.mathType};
            }
        }
        throw std::runtime_error(std::string("cuDNN offers no ") + direction_name(direction) +
                                 " algorithm for " + problem_.key() +
                                 " within the workspace limit of " +
                                 std::to_string(owner_.policy_.workspace_limit_bytes) +
                                 " bytes; raise cudnn_workspace_bytes");
    }

    CudnnConvolutions::Choice choose(ConvDirection direction, const void* a, const void* b,
                                     void* out) {
        std::optional<Choice>& cached = choices_[static_cast<std::size_t>(direction)];
        if (cached) {
            return *cached;
        }
        const Choice choice =
            owner_.policy_.exhaustive ? find(direction, a, b, out) : heuristic(direction);
        cached = choice;
        const std::string key = std::string(direction_name(direction)) + "[" + problem_.key() + "]";
        owner_.chosen_[key] = "algo " + std::to_string(choice.algorithm) + ", " +
                              std::to_string(choice.workspace_bytes) + " B workspace, " +
                              cudnn_math_name(choice.math) +
                              (owner_.policy_.exhaustive ? ", exhaustive" : ", heuristic");
        return choice;
    }

    Choice heuristic(ConvDirection direction) {
        cudnnHandle_t handle = owner_.handle_;
        int count = 0;
        int returned = 0;
        switch (direction) {
            case ConvDirection::forward: {
                TS_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &count));
                std::vector<cudnnConvolutionFwdAlgoPerf_t> results(static_cast<std::size_t>(count));
                TS_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(handle, x_.get(), w_.get(),
                                                                      conv_.get(), y_.get(), count,
                                                                      &returned, results.data()));
                return pick(direction, results, returned);
            }
            case ConvDirection::backward_data: {
                TS_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &count));
                std::vector<cudnnConvolutionBwdDataAlgoPerf_t> results(
                    static_cast<std::size_t>(count));
                TS_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithm_v7(
                    handle, w_.get(), y_.get(), conv_.get(), x_.get(), count, &returned,
                    results.data()));
                return pick(direction, results, returned);
            }
            case ConvDirection::backward_filter: {
                TS_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(handle, &count));
                std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> results(
                    static_cast<std::size_t>(count));
                TS_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
                    handle, x_.get(), y_.get(), conv_.get(), w_.get(), count, &returned,
                    results.data()));
                return pick(direction, results, returned);
            }
        }
        throw std::logic_error("unknown convolution direction");
    }

    // Times the candidates on the real buffers (writes `out`, which the caller then
    // overwrites with the chosen algorithm's result).
    Choice find(ConvDirection direction, const void* a, const void* b, void* out) {
        cudnnHandle_t handle = owner_.handle_;
        const std::size_t limit = owner_.policy_.workspace_limit_bytes;
        void* workspace = limit > 0 ? owner_.workspace_->reserve(limit, owner_.stream_) : nullptr;
        int count = 0;
        int returned = 0;
        switch (direction) {
            case ConvDirection::forward: {
                TS_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &count));
                std::vector<cudnnConvolutionFwdAlgoPerf_t> results(static_cast<std::size_t>(count));
                TS_CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithmEx(
                    handle, x_.get(), a, w_.get(), b, conv_.get(), y_.get(), out, count, &returned,
                    results.data(), workspace, limit));
                return pick(direction, results, returned);
            }
            case ConvDirection::backward_data: {
                TS_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &count));
                std::vector<cudnnConvolutionBwdDataAlgoPerf_t> results(
                    static_cast<std::size_t>(count));
                // a = dy, b = w
                TS_CUDNN_CHECK(cudnnFindConvolutionBackwardDataAlgorithmEx(
                    handle, w_.get(), b, y_.get(), a, conv_.get(), x_.get(), out, count, &returned,
                    results.data(), workspace, limit));
                return pick(direction, results, returned);
            }
            case ConvDirection::backward_filter: {
                TS_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(handle, &count));
                std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> results(
                    static_cast<std::size_t>(count));
                // a = x, b = dy
                TS_CUDNN_CHECK(cudnnFindConvolutionBackwardFilterAlgorithmEx(
                    handle, x_.get(), a, y_.get(), b, conv_.get(), w_.get(), out, count, &returned,
                    results.data(), workspace, limit));
                return pick(direction, results, returned);
            }
        }
        throw std::logic_error("unknown convolution direction");
    }

    // The chosen algorithm runs with the math type it was offered with; the descriptor is
    // shared by the three directions, so it changes only where their choices differ.
    void* prepare(const Choice& choice) {
        if (descriptor_math_ != choice.math) {
            TS_CUDNN_CHECK(cudnnSetConvolutionMathType(conv_.get(), choice.math));
            descriptor_math_ = choice.math;
        }
        return choice.workspace_bytes > 0
                   ? owner_.workspace_->reserve(choice.workspace_bytes, owner_.stream_)
                   : nullptr;
    }

    CudnnConvolutions& owner_;
    const ConvProblem problem_;
    CudnnTensorDescriptor x_;
    CudnnTensorDescriptor y_;
    CudnnFilterDescriptor w_;
    CudnnConvolutionDescriptor conv_;
    cudnnMathType_t descriptor_math_ = CUDNN_DEFAULT_MATH;
    std::array<std::optional<Choice>, 3> choices_;
};

CudnnConvolutions::CudnnConvolutions(cudnnHandle_t handle, cudaStream_t stream,
                                     DeviceScratch& workspace, ConvAlgorithmPolicy policy)
    : handle_(handle), stream_(stream), workspace_(&workspace), policy_(policy) {}

CudnnConvolutions::~CudnnConvolutions() = default;

CudnnConvolutions::Plan& CudnnConvolutions::plan(const ConvProblem& problem) {
    const DescriptorKey<13> key = problem.compact_key();
    const auto found = plans_.find(key);
    if (found != plans_.end()) {
        return *found->second;
    }
    return *plans_.emplace(key, std::make_unique<Plan>(*this, problem)).first->second;
}

void CudnnConvolutions::forward(const ConvProblem& problem, const void* x, const void* w, void* y) {
    Plan& call = plan(problem);
    const Choice choice = call.choose(ConvDirection::forward, x, w, y);
    void* workspace = call.prepare(choice);
    const Scaling scaling(problem.data_type);
    TS_CUDNN_CHECK(cudnnConvolutionForward(
        handle_, scaling.one(), call.x_.get(), x, call.w_.get(), w, call.conv_.get(),
        static_cast<cudnnConvolutionFwdAlgo_t>(choice.algorithm), workspace, choice.workspace_bytes,
        scaling.zero(), call.y_.get(), y));
}

void CudnnConvolutions::backward_data(const ConvProblem& problem, const void* dy, const void* w,
                                      void* dx) {
    Plan& call = plan(problem);
    const Choice choice = call.choose(ConvDirection::backward_data, dy, w, dx);
    void* workspace = call.prepare(choice);
    const Scaling scaling(problem.data_type);
    TS_CUDNN_CHECK(cudnnConvolutionBackwardData(
        handle_, scaling.one(), call.w_.get(), w, call.y_.get(), dy, call.conv_.get(),
        static_cast<cudnnConvolutionBwdDataAlgo_t>(choice.algorithm), workspace,
        choice.workspace_bytes, scaling.zero(), call.x_.get(), dx));
}

void CudnnConvolutions::backward_filter(const ConvProblem& problem, const void* x, const void* dy,
                                        void* dw) {
    Plan& call = plan(problem);
    const Choice choice = call.choose(ConvDirection::backward_filter, x, dy, dw);
    void* workspace = call.prepare(choice);
    const Scaling scaling(problem.data_type);
    TS_CUDNN_CHECK(cudnnConvolutionBackwardFilter(
        handle_, scaling.one(), call.x_.get(), x, call.y_.get(), dy, call.conv_.get(),
        static_cast<cudnnConvolutionBwdFilterAlgo_t>(choice.algorithm), workspace,
        choice.workspace_bytes, scaling.zero(), call.w_.get(), dw));
}

namespace {

void require_epsilon(double epsilon) {
    if (epsilon < CUDNN_BN_MIN_EPSILON) {
        throw std::invalid_argument("batch norm epsilon " + std::to_string(epsilon) +
                                    " is below cuDNN's minimum " +
                                    std::to_string(CUDNN_BN_MIN_EPSILON));
    }
}

}  // namespace

const BatchNormDescriptors::Pair& BatchNormDescriptors::get(const BatchNormProblem& problem) {
    const DescriptorKey<5> key{
        {problem.n, problem.c, problem.h, problem.w, static_cast<int>(problem.data_type)}};
    const auto found = cache_.find(key);
    if (found != cache_.end()) {
        return found->second;
    }
    Pair pair{make_tensor_descriptor(problem.data_type, problem.n, problem.c, problem.h, problem.w),
              make_tensor_descriptor(problem.parameter_type(), 1, problem.c, 1, 1)};
    return cache_.emplace(key, std::move(pair)).first->second;
}

void cudnn_batch_norm_forward_training(cudnnHandle_t handle, BatchNormDescriptors& descriptors,
                                       const BatchNormProblem& problem, const void* x,
                                       const void* gamma, const void* beta, void* y,
                                       double momentum, void* running_mean, void* running_var,
                                       double epsilon, void* saved_mean, void* saved_inv_std) {
    require_epsilon(epsilon);
    const BatchNormDescriptors::Pair& descriptor = descriptors.get(problem);
    const cudnnTensorDescriptor_t data = descriptor.data.get();
    const cudnnTensorDescriptor_t parameters = descriptor.parameters.get();
    const Scaling scaling(problem.data_type);
    // cuDNN: running = (1 - factor) * running + factor * batch, with the unbiased batch
    // variance: the same blend as BatchNormSettings::momentum.
    TS_CUDNN_CHECK(cudnnBatchNormalizationForwardTraining(
        handle, CUDNN_BATCHNORM_SPATIAL, scaling.one(), scaling.zero(), data, x, data, y,
        parameters, gamma, beta, momentum, running_mean, running_var, epsilon, saved_mean,
        saved_inv_std));
}

void cudnn_batch_norm_forward_inference(cudnnHandle_t handle, BatchNormDescriptors& descriptors,
                                        const BatchNormProblem& problem, const void* x,
                                        const void* gamma, const void* beta,
                                        const void* running_mean, const void* running_var, void* y,
                                        double epsilon) {
    require_epsilon(epsilon);
    const BatchNormDescriptors::Pair& descriptor = descriptors.get(problem);
    const cudnnTensorDescriptor_t data = descriptor.data.get();
    const cudnnTensorDescriptor_t parameters = descriptor.parameters.get();
    const Scaling scaling(problem.data_type);
    TS_CUDNN_CHECK(cudnnBatchNormalizationForwardInference(
        handle, CUDNN_BATCHNORM_SPATIAL, scaling.one(), scaling.zero(), data, x, data, y,
        parameters, gamma, beta, running_mean, running_var, epsilon));
}

void cudnn_batch_norm_backward(cudnnHandle_t handle, BatchNormDescriptors& descriptors,
                               const BatchNormProblem& problem, const void* x, const void* dy,
                               const void* gamma, void* dx, void* dgamma, void* dbeta,
                               double epsilon, const void* saved_mean, const void* saved_inv_std) {
    require_epsilon(epsilon);
    const BatchNormDescriptors::Pair& descriptor = descriptors.get(problem);
    const cudnnTensorDescriptor_t data = descriptor.data.get();
    const cudnnTensorDescriptor_t parameters = descriptor.parameters.get();
    const Scaling scaling(problem.data_type);
    TS_CUDNN_CHECK(cudnnBatchNormalizationBackward(
        handle, CUDNN_BATCHNORM_SPATIAL, scaling.one(), scaling.zero(), scaling.one(),
        scaling.zero(), data, x, data, dy, data, dx, parameters, gamma, dgamma, dbeta, epsilon,
        saved_mean, saved_inv_std));
}

}  // namespace trainscope::workloads::cuda

#pragma GCC diagnostic pop
