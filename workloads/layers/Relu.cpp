#include "workloads/layers/Relu.hpp"

namespace trainscope::workloads {

Tensor Relu::forward(StepContext& context, const Tensor& x) {
    Tensor y = context.make(x.shape(), TensorClass::activations);
    context.backend.relu_forward(x, y);
    output_ = y;
    return y;
}

Tensor Relu::backward(StepContext& context, const Tensor& dy, bool need_input_gradient) {
    if (!need_input_gradient) {
        return Tensor();
    }
    Tensor dx = context.make(dy.shape(), TensorClass::activations);
    context.backend.relu_backward(output_, dy, dx);
    return dx;
}

}  // namespace trainscope::workloads
