#include "harness/runner/StoppingRule.hpp"

namespace trainscope::harness {

StopDecision decide_stop(const StoppingRule& rule, const reports::RunningMoments& measured_steps,
                         double elapsed_s) {
    if (rule.fixed_length)
        return StopDecision::Continue;
    if (measured_steps.count >= rule.min_steps && measured_steps.count >= 2 &&
        measured_steps.relative_standard_error() < rule.rse_target) {
        return StopDecision::NoiseTargetMet;
    }
    if (elapsed_s >= rule.max_time_s)
        return StopDecision::TimeCapReached;
    return StopDecision::Continue;
}

}  // namespace trainscope::harness
