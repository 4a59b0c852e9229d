#pragma once

#include <cudnn_graph.h>

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/backends/cuda/CudaResources.hpp"
#include "workloads/backends/cuda/CudnnResources.hpp"
#include "workloads/backends/cuda/DescriptorKey.hpp"

// The one place that speaks cuDNN's legacy (deprecated in cuDNN 9) convolution and
// batch-normalization API; see docs/cuda-backend.md for why it was chosen over the
// graph API. Nothing deprecated appears in this header.
namespace trainscope::workloads::cuda {

// One convolution problem: NCHW x [n,c,h,w], filter [k,c,r,s], output [n,k,p,q].
struct ConvProblem {
    int n, c, h, w, k, r, s, p, q;
    int stride, padding;
    cudnnDataType_t data_type;     // x, w, y
    cudnnDataType_t compute_type;  // the convolution descriptor's: float for 16-bit data
    cudnnMathType_t math;

    // compute_type follows from data_type, so the keys leave it out. key() names the
    // problem in the environment and in errors; compact_key() finds its cached plan.
    std::string key() const;
    DescriptorKey<13> compact_key() const;
};

enum class ConvDirection { forward, backward_data, backward_filter };

struct ConvAlgorithmPolicy {
    bool exhaustive = false;  // cudnnFind*AlgorithmEx once per problem, else heuristics (_v7)
    std::size_t workspace_limit_bytes = 256u << 20;
};

// Convolutions with algorithms chosen once per (direction, problem) and cached, with the
// problem's descriptors, under the problem's compact key: a call after the first builds
// no descriptor and no string. The workspace is reserved on `stream`, where the
// convolutions run (DeviceScratch).
class CudnnConvolutions {
  public:
    CudnnConvolutions(cudnnHandle_t handle, cudaStream_t stream, DeviceScratch& workspace,
                      ConvAlgorithmPolicy policy);
    ~CudnnConvolutions();
    CudnnConvolutions(const CudnnConvolutions&) = delete;
    CudnnConvolutions& operator=(const CudnnConvolutions&) = delete;

    void forward(const ConvProblem& problem, const void* x, const void* w, void* y);
    void backward_data(const ConvProblem& problem, const void* dy, const void* w, void* dx);
    void backward_filter(const ConvProblem& problem, const void* x, const void* dy, void* dw);

    // "conv_fwd[key]" -> "algo 1, 1234 B workspace, CUDNN_FMA_MATH" for the environment.
    const std::map<std::string, std::string>& chosen_algorithms() const { return chosen_; }

  private:
    struct Choice {
        int algorithm = 0;
        std::size_t workspace_bytes = 0;
        cudnnMathType_t math = CUDNN_DEFAULT_MATH;
    };

    struct Plan;  // CudnnLegacyAdapter.cpp: descriptors and per-direction choices
    Plan& plan(const ConvProblem& problem);

    cudnnHandle_t handle_;
    cudaStream_t stream_;
    DeviceScratch* workspace_;
    ConvAlgorithmPolicy policy_;
    DescriptorCache<13, std::unique_ptr<Plan>> plans_;
    std::map<std::string, std::string> chosen_;
};

// Spatial batch normalization through cuDNN (saved inverse std and the unbiased running
// variance are cuDNN's own definitions, which the CPU backend follows).
struct BatchNormProblem {
    int n, c, h, w;
    cudnnDataType_t data_type;  // x, y, dy, dx: half, bfloat16, float or double

    // Scale, bias, running and saved statistics (and their gradients): double for double
    // data, float otherwise (cuDNN's rule for 16-bit data, which the engine follows by
    // keeping batch norm's parameters and statistics in fp32).
    cudnnDataType_t parameter_type() const {
        return data_type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    }
};

// The data and parameter descriptors of each batch-norm problem, made at its first call.
class BatchNormDescriptors {
  public:
    struct Pair {
        CudnnTensorDescriptor data;
        CudnnTensorDescriptor parameters;
    };
    const Pair& get(const BatchNormProblem& problem);

  private:
    DescriptorCache<5, Pair> cache_;
};

void cudnn_batch_norm_forward_training(cudnnHandle_t handle, BatchNormDescriptors& descriptors,
                                       const BatchNormProblem& problem, const void* x,
                                       const void* gamma, const void* beta, void* y,
                                       double momentum, void* running_mean, void* running_var,
                                       double epsilon, void* saved_mean, void* saved_inv_std);
void cudnn_batch_norm_forward_inference(cudnnHandle_t handle, BatchNormDescriptors& descriptors,
                                        const BatchNormProblem& problem, const void* x,
                                        const void* gamma, const void* beta,
                                        const void* running_mean, const void* running_var, void* y,
                                        double epsilon);
void cudnn_batch_norm_backward(cudnnHandle_t handle, BatchNormDescriptors& descriptors,
                               const BatchNormProblem& problem, const void* x, const void* dy,
                               const void* gamma, void* dx, void* dgamma, void* dbeta,
                               double epsilon, const void* saved_mean, const void* saved_inv_std);

}  // namespace trainscope::workloads::cuda
