#pragma once

#include <map>
#include <string>

#include "workloads/tensor/Shape.hpp"

namespace trainscope::workloads {

// The FLOPs of one image through a model (OpCost: a multiply-add counts 2), forward and
// backward, every op the engine runs included (convolutions and GEMMs, and bias, ReLU,
// pooling, batch norm, residual adds); the loss and the optimizer update are not part
// of the model. Backward has no input gradient for the first layer, as in PyTorch.
// `conv_gemm_*` are the convolution and GEMM part alone: what PyTorch's FlopCounterMode
// counts, and what tests/workloads compares with it.
struct ModelFlops {
    double forward = 0.0;
    double backward = 0.0;
    double conv_gemm_forward = 0.0;
    double conv_gemm_backward = 0.0;
};

// Counted, not derived by hand: one image of `input_shape` (CxHxW) goes forward and back
// through the model on a one-thread CPU backend whose CountingBackend sums each op's
// OpCost, so the figure follows the layers as they are. Milliseconds for the catalog's
// models. Throws ConfigError as build_model does.
ModelFlops model_flops_per_image(const std::string& model,
                                 const std::map<std::string, std::string>& model_params,
                                 const Shape& input_shape, int classes);

}  // namespace trainscope::workloads
