#pragma once

#include <memory>

#include "workloads/layers/BatchNorm2d.hpp"
#include "workloads/layers/Conv2d.hpp"
#include "workloads/layers/Relu.hpp"

namespace trainscope::workloads {

// The basic block of CIFAR ResNets: relu(bn(conv3x3(relu(bn(conv3x3(x))))) + shortcut(x)),
// the first convolution striding; the shortcut is the identity, or a strided 1x1
// convolution with batch norm where the shape changes (projection shortcut).
class ResidualBlock final : public Layer {
  public:
    ResidualBlock(const Shape& input_shape, std::int64_t out_channels, int stride);

    std::string name() const override;
    std::vector<Parameter*> parameters() override;
    std::vector<StateBuffer*> buffers() override;
    Tensor forward(StepContext& context, const Tensor& x) override;
    Tensor backward(StepContext& context, const Tensor& dy, bool need_input_gradient) override;
    void release_saved() override;

  private:
    std::unique_ptr<Conv2d> conv1_;
    std::unique_ptr<BatchNorm2d> bn1_;
    std::unique_ptr<Relu> relu1_;
    std::unique_ptr<Conv2d> conv2_;
    std::unique_ptr<BatchNorm2d> bn2_;
    std::unique_ptr<Conv2d> projection_;  // null: identity shortcut
    std::unique_ptr<BatchNorm2d> projection_bn_;
    std::unique_ptr<Relu> relu_out_;
};

}  // namespace trainscope::workloads
