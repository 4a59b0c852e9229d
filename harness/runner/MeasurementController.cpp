#include "harness/runner/MeasurementController.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <thread>

namespace trainscope::harness {

MeasurementController::MeasurementController(StoppingRule rule, FaultInjection fault,
                                             std::string cell_key,
                                             workloads::TrainingObserver* progress)
    : rule_(rule), fault_(std::move(fault)), cell_key_(std::move(cell_key)), progress_(progress) {}

bool MeasurementController::on_step(const workloads::StepRecord& original) {
    workloads::StepRecord step = original;
    if (fault_.applies_to(cell_key_) && step.index >= 2) {
        switch (fault_.kind) {
            case FaultInjection::Kind::Crash: std::raise(SIGSEGV); break;
            case FaultInjection::Kind::Hang:
                for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
            case FaultInjection::Kind::NanLoss:
                step.loss = std::numeric_limits<double>::quiet_NaN();
                break;
            case FaultInjection::Kind::None: break;
        }
    }
    if (progress_ != nullptr) progress_->on_step(step);
    if (!std::isfinite(step.loss) && !step.skipped) {
        divergence_ = fmt::format("diverged: the loss is {} at step {}", step.loss, step.index);
        return false;
    }
    trained_s_ += static_cast<double>(step.duration_ns) * 1e-9;
    if (!step.warmup) measured_.add(static_cast<double>(step.duration_ns));
    decision_ = decide_stop(rule_, measured_, trained_s_);
    return decision_ == StopDecision::Continue;
}

void MeasurementController::on_eval(const workloads::EvalRecord& eval) {
    if (progress_ != nullptr) progress_->on_eval(eval);
}

}  // namespace trainscope::harness
