#pragma once

#include "workloads/optim/Optimizer.hpp"

namespace trainscope::workloads {

class Sgd final : public Optimizer {
  public:
    Sgd(std::vector<Parameter*> parameters, StepContext& context, SgdSettings settings);
    void step(StepContext& context, double grad_factor, const Tensor& skip_if_overflow) override;
    void finish_step(bool) override {}

  private:
    // As Adam's: one multi-tensor update per gradient dtype, lists built once.
    struct Group {
        std::vector<Tensor*> values;
        std::vector<const Tensor*> gradients;
        std::vector<Tensor*> velocities;
    };

    std::vector<Parameter*> parameters_;
    std::vector<Tensor> velocities_;
    std::vector<Group> groups_;
    SgdSettings settings_;
};

}  // namespace trainscope::workloads
