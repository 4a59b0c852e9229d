#pragma once

#include <cstdint>
#include <string>

#include "workloads/tensor/Tensor.hpp"

namespace trainscope::workloads {

enum class ParameterInit {
    fan_in_uniform,  // U(-1/sqrt(fan_in), 1/sqrt(fan_in)): PyTorch's default for conv and linear
    ones,
    zeros,
};

// A trainable tensor with its gradient. `value` is the master copy (fp32, or fp64 for
// fp64 runs). Mixed-precision runs compute with `compute_copy`, the master rounded to
// fp16/bf16 after every update; parameters marked keep_master_precision (batch norm's
// scale and shift, as cuDNN takes them) compute with the master itself.
struct Parameter {
    std::string name;
    Shape shape;
    ParameterInit init = ParameterInit::zeros;
    std::int64_t fan_in = 1;
    bool keep_master_precision = false;

    Tensor value;
    Tensor gradient;
    Tensor compute_copy;

    const Tensor& for_compute() const { return compute_copy.empty() ? value : compute_copy; }
};

// Non-trainable state that persists across steps (batch norm running statistics).
struct StateBuffer {
    std::string name;
    Shape shape;
    double initial_value = 0.0;
    Tensor value;
};

}  // namespace trainscope::workloads
