#pragma once

#include "workloads/optim/Optimizer.hpp"

namespace trainscope::workloads {

class Adam final : public Optimizer {
  public:
    Adam(std::vector<Parameter*> parameters, StepContext& context, AdamSettings settings);
    void step(StepContext& context, double grad_factor) override;

  private:
    std::vector<Parameter*> parameters_;
    std::vector<Tensor> first_moments_;
    std::vector<Tensor> second_moments_;
    AdamSettings settings_;
};

}  // namespace trainscope::workloads
