#include "harness/capture/MeasuredStepClock.hpp"

namespace trainscope::harness {

MeasuredStepClock::MeasuredStepClock(workloads::TrainingObserver* next, Clock clock)
    : next_(next), clock_(std::move(clock)) {}

bool MeasuredStepClock::on_step(const workloads::StepRecord& step) {
    const std::int64_t end_ns = clock_();
    if (memory_ != nullptr)
        memory_->step_ended();
    if (!step.warmup && next_start_ns_) {
        if (open_) {
            intervals_.back().end_ns = end_ns;
        } else {
            intervals_.push_back({*next_start_ns_, end_ns});
            open_ = true;
        }
        ++measured_steps_;
    }
    const bool go_on = next_ == nullptr || next_->on_step(step);
    next_start_ns_ = clock_();
    return go_on;
}

void MeasuredStepClock::on_eval(const workloads::EvalRecord& eval) {
    open_ = false;
    if (memory_ != nullptr)
        memory_->step_ended();
    if (next_ != nullptr)
        next_->on_eval(eval);
    next_start_ns_ = clock_();
}

}  // namespace trainscope::harness
