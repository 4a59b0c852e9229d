#pragma once

#include <memory>
#include <vector>

#include "workloads/layers/Parameter.hpp"
#include "workloads/layers/StepContext.hpp"

namespace trainscope::workloads {

// Updates master parameters from their gradients. State tensors (moments, velocities)
// are made once, at construction.
class Optimizer {
  public:
    virtual ~Optimizer() = default;
    // grad_factor multiplies every gradient first (1 / loss scale).
    virtual void step(StepContext& context, double grad_factor) = 0;
};

struct TrainingConfig;
// "adam" (lr, betas 0.9/0.999, eps 1e-8) or "sgd" (lr, momentum, weight decay); throws
// ConfigError naming `optimizer` otherwise.
std::unique_ptr<Optimizer> make_optimizer(const TrainingConfig& config,
                                          std::vector<Parameter*> parameters, StepContext& context);

}  // namespace trainscope::workloads
