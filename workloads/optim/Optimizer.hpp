#pragma once

#include <memory>
#include <vector>

#include "workloads/layers/FlatParameters.hpp"
#include "workloads/layers/StepContext.hpp"

namespace trainscope::workloads {

// Updates master parameters from their gradients. State tensors (moments, velocities)
// are made once, at construction, as flat buffers in the masters' layout; the updates run
// over whole flat buffers, one backend call per gradient buffer (FlatParameters).
class Optimizer {
  public:
    virtual ~Optimizer() = default;
    // Queues the updates of the next step. grad_factor multiplies every gradient first
    // (1 / loss scale); skip_if_overflow is empty or the step's overflow flag (fp16),
    // which makes the backend skip the updates where they run (Backend::sgd_update).
    virtual void step(StepContext& context, double grad_factor, const Tensor& skip_if_overflow) = 0;
    // After the step: whether its updates were applied (a replayed CUDA graph step counts
    // too, though it never called step()). Only applied steps advance step counts.
    virtual void finish_step(bool applied) = 0;
};

struct TrainingConfig;
// "adam" (lr, betas 0.9/0.999, eps 1e-8) or "sgd" (lr, momentum, weight decay); throws
// ConfigError naming `optimizer` otherwise.
std::unique_ptr<Optimizer> make_optimizer(const TrainingConfig& config,
                                          const FlatParameters& parameters, StepContext& context);

}  // namespace trainscope::workloads
