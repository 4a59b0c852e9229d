#pragma once

#include "workloads/layers/Layer.hpp"

namespace trainscope::workloads {

// CxHxW -> C: the mean of each channel.
class GlobalAvgPool final : public Layer {
  public:
    explicit GlobalAvgPool(const Shape& input_shape);

    std::string name() const override { return "global_avg_pool"; }
    Tensor forward(StepContext& context, const Tensor& x) override;
    Tensor backward(StepContext& context, const Tensor& dy, bool need_input_gradient) override;
    void release_saved() override {}
};

}  // namespace trainscope::workloads
