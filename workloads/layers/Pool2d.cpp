#include "workloads/layers/Pool2d.hpp"

#include "workloads/layers/ShapeCheck.hpp"

namespace trainscope::workloads {
namespace {

Shape pool_output_shape(const Shape& in, PoolKind kind, const Pool2dGeometry& g) {
    const std::string layer = kind == PoolKind::max ? "max pool" : "average pool";
    require_input(in.rank() == 3, layer, in, "needs CxHxW");
    const std::int64_t h = conv_output_extent(in[1], g.window, g.stride, g.padding);
    const std::int64_t w = conv_output_extent(in[2], g.window, g.stride, g.padding);
    require_input(h >= 1 && w >= 1, layer, in,
                  "height and width must be at least the window " + std::to_string(g.window));
    return Shape{in[0], h, w};
}

}  // namespace

Pool2d::Pool2d(const Shape& input_shape, PoolKind kind, Pool2dGeometry geometry)
    : Layer(input_shape, pool_output_shape(input_shape, kind, geometry)),
      kind_(kind),
      geometry_(geometry) {}

std::string Pool2d::name() const {
    return std::string(kind_ == PoolKind::max ? "maxpool" : "avgpool") +
           std::to_string(geometry_.window);
}

Tensor Pool2d::forward(StepContext& context, const Tensor& x) {
    Tensor y = context.make(output_shape().with_batch(x.shape()[0]), TensorClass::activations);
    if (kind_ == PoolKind::max) {
        // A maximum of rounded values is already rounded.
        context.backend.max_pool_forward(x, y, geometry_);
        output_ = y;  // the backward pass finds the maxima through it (usually shared with
                      // the next layer's saved input, so it costs no memory)
    } else {
        context.backend.avg_pool_forward(x, y, geometry_);
        context.round_result(y);
    }
    input_ = x;
    return y;
}

Tensor Pool2d::backward(StepContext& context, const Tensor& dy, bool need_input_gradient) {
    if (!need_input_gradient) {
        return Tensor();
    }
    Tensor dx = context.make(input_.shape(), TensorClass::activations);
    if (kind_ == PoolKind::max) {
        context.backend.max_pool_backward(input_, output_, dy, dx, geometry_);
    } else {
        context.backend.avg_pool_backward(dy, dx, geometry_);
    }
    context.round_result(dx);
    return dx;
}

}  // namespace trainscope::workloads
