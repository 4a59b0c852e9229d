#pragma once

#include <cstdint>

#include "reports/stats/RunningMoments.hpp"

namespace trainscope::harness {

// When a cell has measured enough. Fixed length (--steps/--epochs) leaves the decision to
// the training length; otherwise measurement goes on until the relative standard error
// of the mean step time is below `rse_target` with at least `min_steps` measured steps,
// or until `max_time_s` of training has passed (noise target not met).
struct StoppingRule {
    bool fixed_length = true;
    double rse_target = 0.005;  // nvbench's default noise target
    std::int64_t min_steps = 50;
    double max_time_s = 60.0;
};

enum class StopDecision { Continue, NoiseTargetMet, TimeCapReached };

// Pure: the moments of the measured (non-warm-up) step times and the training time so far.
StopDecision decide_stop(const StoppingRule& rule, const reports::RunningMoments& measured_steps,
                         double elapsed_s);

}  // namespace trainscope::harness
