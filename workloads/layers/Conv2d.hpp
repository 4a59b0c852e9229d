#pragma once

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/layers/Layer.hpp"

namespace trainscope::workloads {

// 2-D convolution with square kernels, optional bias.
class Conv2d final : public Layer {
  public:
    Conv2d(const Shape& input_shape, std::int64_t out_channels, std::int64_t kernel,
           Conv2dGeometry geometry, bool with_bias);

    std::string name() const override;
    std::vector<Parameter*> parameters() override;
    Tensor forward(StepContext& context, const Tensor& x) override;
    Tensor backward(StepContext& context, const Tensor& dy, bool need_input_gradient) override;
    void release_saved() override { input_ = Tensor(); }

  private:
    Conv2dGeometry geometry_;
    bool with_bias_;
    Parameter weight_;
    Parameter bias_;
    Tensor input_;
};

}  // namespace trainscope::workloads
