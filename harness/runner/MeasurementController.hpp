#pragma once

#include <chrono>
#include <csignal>
#include <cstdint>
#include <string>

#include "harness/runner/FaultInjection.hpp"
#include "harness/runner/StoppingRule.hpp"
#include "reports/stats/RunningMoments.hpp"
#include "workloads/training/TrainingResult.hpp"

namespace trainscope::harness {

// Watches a cell's training step by step: applies the stopping rule, stops on a
// diverged (non-finite) loss, applies an injected test fault, and forwards every step
// to the progress display.
class MeasurementController : public workloads::TrainingObserver {
  public:
    MeasurementController(StoppingRule rule, FaultInjection fault, std::string cell_key,
                          workloads::TrainingObserver* progress);

    bool on_step(const workloads::StepRecord& step) override;
    void on_eval(const workloads::EvalRecord& eval) override;

    [[nodiscard]] StopDecision stop_decision() const { return decision_; }
    // Empty unless training diverged: "the loss is nan at step 12".
    [[nodiscard]] const std::string& divergence() const { return divergence_; }

  private:
    StoppingRule rule_;
    FaultInjection fault_;
    std::string cell_key_;
    workloads::TrainingObserver* progress_;
    reports::RunningMoments measured_;
    double trained_s_ = 0.0;
    StopDecision decision_ = StopDecision::Continue;
    std::string divergence_;
};

}  // namespace trainscope::harness
