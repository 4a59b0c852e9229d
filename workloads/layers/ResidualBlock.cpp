#include "workloads/layers/ResidualBlock.hpp"

namespace trainscope::workloads {
namespace {

Shape block_output_shape(const Shape& in, std::int64_t out_channels, int stride) {
    // The first convolution decides (and checks) the output extent.
    return Conv2d(in, out_channels, 3, Conv2dGeometry{stride, 1}, false).output_shape();
}

template <typename Collection>
void append(Collection& into, Collection more) {
    into.insert(into.end(), more.begin(), more.end());
}

}  // namespace

ResidualBlock::ResidualBlock(const Shape& input_shape, std::int64_t out_channels, int stride)
    : Layer(input_shape, block_output_shape(input_shape, out_channels, stride)) {
    conv1_ =
        std::make_unique<Conv2d>(input_shape, out_channels, 3, Conv2dGeometry{stride, 1}, false);
    bn1_ = std::make_unique<BatchNorm2d>(conv1_->output_shape());
    relu1_ = std::make_unique<Relu>(bn1_->output_shape());
    conv2_ = std::make_unique<Conv2d>(relu1_->output_shape(), out_channels, 3, Conv2dGeometry{1, 1},
                                      false);
    bn2_ = std::make_unique<BatchNorm2d>(conv2_->output_shape());
    if (stride != 1 || input_shape[0] != out_channels) {
        projection_ = std::make_unique<Conv2d>(input_shape, out_channels, 1,
                                               Conv2dGeometry{stride, 0}, false);
        projection_bn_ = std::make_unique<BatchNorm2d>(projection_->output_shape());
    }
    relu_out_ = std::make_unique<Relu>(output_shape());
}

std::string ResidualBlock::name() const {
    return "residual" + std::to_string(output_shape()[0]) + (projection_ ? "/proj" : "");
}

std::vector<Parameter*> ResidualBlock::parameters() {
    std::vector<Parameter*> all;
    append(all, conv1_->parameters());
    append(all, bn1_->parameters());
    append(all, conv2_->parameters());
    append(all, bn2_->parameters());
    if (projection_) {
        append(all, projection_->parameters());
        append(all, projection_bn_->parameters());
    }
    return all;
}

std::vector<StateBuffer*> ResidualBlock::buffers() {
    std::vector<StateBuffer*> all;
    append(all, bn1_->buffers());
    append(all, bn2_->buffers());
    if (projection_) {
        append(all, projection_bn_->buffers());
    }
    return all;
}

Tensor ResidualBlock::forward(StepContext& context, const Tensor& x) {
    Tensor branch = conv1_->forward(context, x);
    branch = bn1_->forward(context, branch);
    branch = relu1_->forward(context, branch);
    branch = conv2_->forward(context, branch);
    branch = bn2_->forward(context, branch);
    Tensor shortcut = x;
    if (projection_) {
        shortcut = projection_->forward(context, x);
        shortcut = projection_bn_->forward(context, shortcut);
    }
    Tensor sum = context.make(branch.shape(), TensorClass::activations);
    context.backend.add(branch, shortcut, sum);
    context.round_result(sum);
    return relu_out_->forward(context, sum);
}

Tensor ResidualBlock::backward(StepContext& context, const Tensor& dy, bool need_input_gradient) {
    // Each sub-layer lets go of its saved tensors as soon as its backward is done, which
    // lowers the peak while the rest of the block's backward runs.
    auto step_back = [&context](Layer& layer, const Tensor& gradient, bool need_input) {
        Tensor result = layer.backward(context, gradient, need_input);
        layer.release_saved();
        return result;
    };
    const Tensor d_sum = step_back(*relu_out_, dy, true);
    Tensor d_branch = step_back(*bn2_, d_sum, true);
    d_branch = step_back(*conv2_, d_branch, true);
    d_branch = step_back(*relu1_, d_branch, true);
    d_branch = step_back(*bn1_, d_branch, true);
    d_branch = step_back(*conv1_, d_branch, need_input_gradient);
    Tensor d_shortcut = d_sum;
    if (projection_) {
        d_shortcut = step_back(*projection_bn_, d_sum, true);
        d_shortcut = step_back(*projection_, d_shortcut, need_input_gradient);
    }
    if (!need_input_gradient) {
        return Tensor();
    }
    Tensor dx = context.make(d_branch.shape(), TensorClass::activations);
    context.backend.add(d_branch, d_shortcut, dx);
    context.round_result(dx);
    return dx;
}

void ResidualBlock::release_saved() {
    conv1_->release_saved();
    bn1_->release_saved();
    relu1_->release_saved();
    conv2_->release_saved();
    bn2_->release_saved();
    if (projection_) {
        projection_->release_saved();
        projection_bn_->release_saved();
    }
    relu_out_->release_saved();
}

}  // namespace trainscope::workloads
