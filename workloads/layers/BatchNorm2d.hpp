#pragma once

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/layers/Layer.hpp"

namespace trainscope::workloads {

// Batch normalization per channel: batch statistics in training (blended into running
// statistics), running statistics in evaluation. Scale and shift stay in master
// precision under mixed precision, as cuDNN takes them.
class BatchNorm2d final : public Layer {
  public:
    explicit BatchNorm2d(const Shape& input_shape);

    std::string name() const override { return "batchnorm"; }
    std::vector<Parameter*> parameters() override { return {&gamma_, &beta_}; }
    std::vector<StateBuffer*> buffers() override { return {&running_mean_, &running_var_}; }
    Tensor forward(StepContext& context, const Tensor& x) override;
    Tensor backward(StepContext& context, const Tensor& dy, bool need_input_gradient) override;
    void release_saved() override;

  private:
    BatchNormSettings settings_;
    Parameter gamma_;
    Parameter beta_;
    StateBuffer running_mean_;
    StateBuffer running_var_;
    Tensor input_;
    Tensor saved_mean_;
    Tensor saved_inv_std_;
};

}  // namespace trainscope::workloads
