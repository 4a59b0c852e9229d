#pragma once

#include <vector>

#include "workloads/optim/Optimizer.hpp"

namespace trainscope::workloads {

class Sgd final : public Optimizer {
  public:
    Sgd(const FlatParameters& parameters, StepContext& context, SgdSettings settings);
    void step(StepContext& context, double grad_factor, const Tensor& skip_if_overflow) override;
    void finish_step(bool) override {}

  private:
    // As Adam's: one update per gradient buffer, over views made once.
    struct Span {
        Tensor values;
        Tensor gradients;
        Tensor velocities;
    };

    Tensor velocities_;
    std::vector<Span> spans_;
    SgdSettings settings_;
};

}  // namespace trainscope::workloads
