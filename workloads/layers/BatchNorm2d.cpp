#include "workloads/layers/BatchNorm2d.hpp"

#include "workloads/layers/ShapeCheck.hpp"

namespace trainscope::workloads {
namespace {

const Shape& checked(const Shape& in) {
    require_input(in.rank() == 3, "batch norm", in, "needs CxHxW");
    return in;
}

}  // namespace

BatchNorm2d::BatchNorm2d(const Shape& input_shape) : Layer(checked(input_shape), input_shape) {
    const Shape channels{input_shape[0]};
    gamma_.name = "gamma";
    gamma_.shape = channels;
    gamma_.init = ParameterInit::ones;
    gamma_.keep_master_precision = true;
    beta_.name = "beta";
    beta_.shape = channels;
    beta_.init = ParameterInit::zeros;
    beta_.keep_master_precision = true;
    running_mean_.name = "running_mean";
    running_mean_.shape = channels;
    running_mean_.initial_value = 0.0;
    running_var_.name = "running_var";
    running_var_.shape = channels;
    running_var_.initial_value = 1.0;
}

Tensor BatchNorm2d::forward(StepContext& context, const Tensor& x) {
    Tensor y = context.make(x.shape(), TensorClass::activations);
    if (context.training) {
        // Statistics stay in the master dtype next to 16-bit data (cuDNN's rule).
        saved_mean_ = context.make_master(gamma_.shape, TensorClass::activations);
        saved_inv_std_ = context.make_master(gamma_.shape, TensorClass::activations);
        context.backend.batch_norm_forward_training(
            x, gamma_.value, beta_.value, y, running_mean_.value, running_var_.value, saved_mean_,
            saved_inv_std_, settings_, !context.recomputing);
        input_ = x;
    } else {
        context.backend.batch_norm_forward_inference(
            x, gamma_.value, beta_.value, running_mean_.value, running_var_.value, y, settings_);
    }
    context.round_result(y);
    return y;
}

Tensor BatchNorm2d::backward(StepContext& context, const Tensor& dy, bool need_input_gradient) {
    Tensor dx = context.make(input_.shape(), TensorClass::activations);
    context.backend.batch_norm_backward(input_, dy, gamma_.value, saved_mean_, saved_inv_std_, dx,
                                        gamma_.gradient, beta_.gradient, settings_);
    if (!need_input_gradient) {
        return Tensor();
    }
    context.round_result(dx);
    return dx;
}

void BatchNorm2d::release_saved() {
    input_ = Tensor();
    saved_mean_ = Tensor();
    saved_inv_std_ = Tensor();
}

}  // namespace trainscope::workloads
