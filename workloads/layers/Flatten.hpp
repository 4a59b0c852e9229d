#pragma once

#include "workloads/layers/Layer.hpp"

namespace trainscope::workloads {

// CxHxW -> C*H*W as a view of the same memory.
class Flatten final : public Layer {
  public:
    explicit Flatten(const Shape& input_shape)
        : Layer(input_shape, Shape{input_shape.elements()}) {}

    std::string name() const override { return "flatten"; }
    Tensor forward(StepContext& context, const Tensor& x) override;
    Tensor backward(StepContext& context, const Tensor& dy, bool need_input_gradient) override;
    void release_saved() override {}
};

}  // namespace trainscope::workloads
