#pragma once

#include <cstdint>
#include <vector>

#include "workloads/optim/Optimizer.hpp"

namespace trainscope::workloads {

class Adam final : public Optimizer {
  public:
    Adam(const FlatParameters& parameters, StepContext& context, AdamSettings settings);
    void step(StepContext& context, double grad_factor, const Tensor& skip_if_overflow) override;
    void finish_step(bool applied) override;

  private:
    // One update per gradient buffer (FlatParameters::Span), over views made once: the
    // masters, the moments (flat, in the masters' layout) and the gradients under it.
    struct Span {
        Tensor values;
        Tensor gradients;
        Tensor first_moments;
        Tensor second_moments;
    };

    Tensor first_moments_;
    Tensor second_moments_;
    std::vector<Span> spans_;
    AdamSettings settings_;
    std::int64_t applied_steps_ = 0;  // bias correction counts applied updates only
};

}  // namespace trainscope::workloads
