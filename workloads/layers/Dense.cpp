#include "workloads/layers/Dense.hpp"

namespace trainscope::workloads {

Dense::Dense(const Shape& input_shape, std::int64_t out_features)
    : Layer(input_shape, Shape{out_features}) {
    const std::int64_t in_features = input_shape.elements();
    weight_.name = "weight";
    weight_.shape = Shape{out_features, in_features};
    weight_.init = ParameterInit::fan_in_uniform;
    weight_.fan_in = in_features;
    bias_.name = "bias";
    bias_.shape = Shape{out_features};
    bias_.init = ParameterInit::fan_in_uniform;
    bias_.fan_in = in_features;
}

Tensor Dense::forward(StepContext& context, const Tensor& x) {
    const std::int64_t batch = x.shape()[0];
    Tensor flat = x.reshaped(Shape{batch, input_shape().elements()});
    Tensor y = context.make(Shape{batch, output_shape()[0]}, TensorClass::activations);
    context.backend.gemm(false, true, 1.0, flat, weight_.for_compute(), 0.0, y);
    context.backend.add_bias(y, bias_.for_compute());
    context.round_result(y);
    input_ = flat;
    return y;
}

Tensor Dense::backward(StepContext& context, const Tensor& dy, bool need_input_gradient) {
    context.backend.gemm(true, false, 1.0, dy, input_, 0.0, weight_.gradient);
    context.backend.bias_backward(dy, bias_.gradient);
    context.round_result(weight_.gradient);
    context.round_result(bias_.gradient);
    if (!need_input_gradient) {
        return Tensor();
    }
    Tensor dx = context.make(input_.shape(), TensorClass::activations);
    context.backend.gemm(false, false, 1.0, dy, weight_.for_compute(), 0.0, dx);
    context.round_result(dx);
    return dx.reshaped(input_shape().with_batch(dy.shape()[0]));
}

}  // namespace trainscope::workloads
