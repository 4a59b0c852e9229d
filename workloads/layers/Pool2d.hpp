#pragma once

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/layers/Layer.hpp"

namespace trainscope::workloads {

enum class PoolKind { max, average };

// Max or average pooling over square windows.
class Pool2d final : public Layer {
  public:
    Pool2d(const Shape& input_shape, PoolKind kind, Pool2dGeometry geometry);

    std::string name() const override;
    Tensor forward(StepContext& context, const Tensor& x) override;
    Tensor backward(StepContext& context, const Tensor& dy, bool need_input_gradient) override;
    void release_saved() override {
        input_ = Tensor();
        output_ = Tensor();
    }

  private:
    PoolKind kind_;
    Pool2dGeometry geometry_;
    Tensor input_;
    Tensor output_;  // max pooling only
};

}  // namespace trainscope::workloads
