#pragma once

#include <cudnn_graph.h>

#include <cstddef>
#include <map>
#include <string>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/backends/cuda/CudaResources.hpp"

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

    // compute_type follows from data_type, so the key leaves it out.
    std::string key() const;
};

enum class ConvDirection { forward, backward_data, backward_filter };

struct ConvAlgorithmPolicy {
    bool exhaustive = false;  // cudnnFind*AlgorithmEx once per problem, else heuristics (_v7)
    std::size_t workspace_limit_bytes = 256u << 20;
};

// Convolutions with algorithms chosen once per (direction, problem) and cached.
class CudnnConvolutions {
  public:
    CudnnConvolutions(cudnnHandle_t handle, DeviceScratch& workspace, ConvAlgorithmPolicy policy)
        : handle_(handle), workspace_(&workspace), policy_(policy) {}

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

    cudnnHandle_t handle_;
    DeviceScratch* workspace_;
    ConvAlgorithmPolicy policy_;
    std::map<std::string, Choice> cache_;
    std::map<std::string, std::string> chosen_;

    friend struct ConvolutionCall;
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

void cudnn_batch_norm_forward_training(cudnnHandle_t handle, const BatchNormProblem& problem,
                                       const void* x, const void* gamma, const void* beta, void* y,
                                       double momentum, void* running_mean, void* running_var,
                                       double epsilon, void* saved_mean, void* saved_inv_std);
void cudnn_batch_norm_forward_inference(cudnnHandle_t handle, const BatchNormProblem& problem,
                                        const void* x, const void* gamma, const void* beta,
                                        const void* running_mean, const void* running_var, void* y,
                                        double epsilon);
void cudnn_batch_norm_backward(cudnnHandle_t handle, const BatchNormProblem& problem, const void* x,
                               const void* dy, const void* gamma, void* dx, void* dgamma,
                               void* dbeta, double epsilon, const void* saved_mean,
                               const void* saved_inv_std);

}  // namespace trainscope::workloads::cuda
