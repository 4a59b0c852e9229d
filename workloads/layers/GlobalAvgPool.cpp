#include "workloads/layers/GlobalAvgPool.hpp"

#include "workloads/layers/ShapeCheck.hpp"

namespace trainscope::workloads {
namespace {

Shape channels_of(const Shape& in) {
    require_input(in.rank() == 3, "global average pool", in, "needs CxHxW");
    return Shape{in[0]};
}

}  // namespace

GlobalAvgPool::GlobalAvgPool(const Shape& input_shape)
    : Layer(input_shape, channels_of(input_shape)) {}

Tensor GlobalAvgPool::forward(StepContext& context, const Tensor& x) {
    Tensor y = context.make(output_shape().with_batch(x.shape()[0]), TensorClass::activations);
    context.backend.global_avg_pool_forward(x, y);
    context.round_result(y);
    return y;
}

Tensor GlobalAvgPool::backward(StepContext& context, const Tensor& dy, bool need_input_gradient) {
    if (!need_input_gradient) {
        return Tensor();
    }
    Tensor dx = context.make(input_shape().with_batch(dy.shape()[0]), TensorClass::activations);
    context.backend.global_avg_pool_backward(dy, dx);
    context.round_result(dx);
    return dx;
}

}  // namespace trainscope::workloads
