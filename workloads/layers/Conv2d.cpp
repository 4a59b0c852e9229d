#include "workloads/layers/Conv2d.hpp"

#include "workloads/layers/ShapeCheck.hpp"

namespace trainscope::workloads {
namespace {

Shape conv_output_shape(const Shape& in, std::int64_t out_channels, std::int64_t kernel,
                        const Conv2dGeometry& g) {
    require_input(in.rank() == 3, "conv" + std::to_string(kernel) + "x" + std::to_string(kernel),
                  in, "needs CxHxW");
    const std::int64_t h = conv_output_extent(in[1], kernel, g.stride, g.padding);
    const std::int64_t w = conv_output_extent(in[2], kernel, g.stride, g.padding);
    require_input(
        h >= 1 && w >= 1, "conv" + std::to_string(kernel) + "x" + std::to_string(kernel), in,
        "height and width plus padding must be at least the kernel size " + std::to_string(kernel));
    return Shape{out_channels, h, w};
}

}  // namespace

Conv2d::Conv2d(const Shape& input_shape, std::int64_t out_channels, std::int64_t kernel,
               Conv2dGeometry geometry, bool with_bias)
    : Layer(input_shape, conv_output_shape(input_shape, out_channels, kernel, geometry)),
      geometry_(geometry),
      with_bias_(with_bias) {
    const std::int64_t fan_in = input_shape[0] * kernel * kernel;
    weight_.name = "weight";
    weight_.shape = Shape{out_channels, input_shape[0], kernel, kernel};
    weight_.init = ParameterInit::fan_in_uniform;
    weight_.fan_in = fan_in;
    bias_.name = "bias";
    bias_.shape = Shape{out_channels};
    bias_.init = ParameterInit::fan_in_uniform;
    bias_.fan_in = fan_in;
}

std::string Conv2d::name() const {
    return "conv" + std::to_string(weight_.shape[2]) + "x" + std::to_string(weight_.shape[3]) +
           "x" + std::to_string(weight_.shape[0]) + "/s" + std::to_string(geometry_.stride) + "p" +
           std::to_string(geometry_.padding);
}

std::vector<Parameter*> Conv2d::parameters() {
    if (with_bias_) {
        return {&weight_, &bias_};
    }
    return {&weight_};
}

Tensor Conv2d::forward(StepContext& context, const Tensor& x) {
    Tensor y = context.make(output_shape().with_batch(x.shape()[0]), TensorClass::activations);
    static const Tensor kNoBias;
    context.backend.conv2d_forward(x, weight_.for_compute(),
                                   with_bias_ ? bias_.for_compute() : kNoBias, y, geometry_);
    context.round_result(y);
    input_ = x;
    return y;
}

Tensor Conv2d::backward(StepContext& context, const Tensor& dy, bool need_input_gradient) {
    Tensor no_bias;
    context.backend.conv2d_backward_filter(input_, dy, weight_.gradient,
                                           with_bias_ ? bias_.gradient : no_bias, geometry_);
    context.round_result(weight_.gradient);
    if (with_bias_) {
        context.round_result(bias_.gradient);
    }
    if (!need_input_gradient) {
        return Tensor();
    }
    Tensor dx = context.make(input_.shape(), TensorClass::activations);
    context.backend.conv2d_backward_data(dy, weight_.for_compute(), dx, geometry_);
    context.round_result(dx);
    return dx;
}

}  // namespace trainscope::workloads
