#pragma once

#include "workloads/layers/Layer.hpp"

namespace trainscope::workloads {

// max(x, 0). Its outputs and gradients are copies or zeros of already rounded values,
// so mixed precision has nothing to round here.
class Relu final : public Layer {
  public:
    explicit Relu(const Shape& input_shape) : Layer(input_shape, input_shape) {}

    std::string name() const override { return "relu"; }
    Tensor forward(StepContext& context, const Tensor& x) override;
    Tensor backward(StepContext& context, const Tensor& dy, bool need_input_gradient) override;
    void release_saved() override { output_ = Tensor(); }

  private:
    Tensor output_;
};

}  // namespace trainscope::workloads
