#pragma once

#include <cstdint>

#include "workloads/optim/Optimizer.hpp"

namespace trainscope::workloads {

class Adam final : public Optimizer {
  public:
    Adam(std::vector<Parameter*> parameters, StepContext& context, AdamSettings settings);
    void step(StepContext& context, double grad_factor, const Tensor& skip_if_overflow) override;
    void finish_step(bool applied) override;

  private:
    // One multi-tensor update per group of parameters whose gradients share a dtype
    // (group_by_gradient_dtype); the lists are built once and point into parameters_'
    // tensors and the moments below, which never move after construction.
    struct Group {
        std::vector<Tensor*> values;
        std::vector<const Tensor*> gradients;
        std::vector<Tensor*> first_moments;
        std::vector<Tensor*> second_moments;
    };

    std::vector<Parameter*> parameters_;
    std::vector<Tensor> first_moments_;
    std::vector<Tensor> second_moments_;
    std::vector<Group> groups_;
    AdamSettings settings_;
    std::int64_t applied_steps_ = 0;  // bias correction counts applied updates only
};

}  // namespace trainscope::workloads
