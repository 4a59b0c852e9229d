#include "workloads/layers/Flatten.hpp"

namespace trainscope::workloads {

Tensor Flatten::forward(StepContext& context, const Tensor& x) {
    (void)context;
    return x.reshaped(output_shape().with_batch(x.shape()[0]));
}

Tensor Flatten::backward(StepContext& context, const Tensor& dy, bool need_input_gradient) {
    (void)context;
    if (!need_input_gradient) {
        return Tensor();
    }
    return dy.reshaped(input_shape().with_batch(dy.shape()[0]));
}

}  // namespace trainscope::workloads
