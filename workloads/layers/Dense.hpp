#pragma once

#include "workloads/layers/Layer.hpp"

namespace trainscope::workloads {

// Fully connected: y = x * W^T + b over the flattened sample.
class Dense final : public Layer {
  public:
    Dense(const Shape& input_shape, std::int64_t out_features);

    std::string name() const override { return "dense" + std::to_string(output_shape()[0]); }
    std::vector<Parameter*> parameters() override { return {&weight_, &bias_}; }
    Tensor forward(StepContext& context, const Tensor& x) override;
    Tensor backward(StepContext& context, const Tensor& dy, bool need_input_gradient) override;
    void release_saved() override { input_ = Tensor(); }

  private:
    Parameter weight_;
    Parameter bias_;
    Tensor input_;
};

}  // namespace trainscope::workloads
