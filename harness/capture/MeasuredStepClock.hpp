#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "harness/capture/MemoryTimeline.hpp"
#include "harness/capture/TelemetryWindow.hpp"
#include "workloads/training/TrainingResult.hpp"

namespace trainscope::harness {

// Records, on the host clock the NVML samples use, when the measured (non-warm-up) steps
// ran, and forwards every step and evaluation to the next observer. Steps carry only
// their durations, so the boundaries are the observer calls themselves: a step ends when
// its on_step is called (after the backend synchronised and read the step's results)
// and the next one begins when the previous callback — on_step or on_eval — returns.
// Consecutive measured steps form one interval; an evaluation closes it, so evaluation
// time is outside the window. Step 0 begins with no callback before it: when it is a
// measured step (no warm-up) its start is unknown, so the window begins at its end and
// step 0 is not counted.
class MeasuredStepClock : public workloads::TrainingObserver {
  public:
    using Clock = std::function<std::int64_t()>;
    MeasuredStepClock(workloads::TrainingObserver* next, Clock clock);

    bool on_step(const workloads::StepRecord& step) override;
    void on_eval(const workloads::EvalRecord& eval) override;
    workloads::MemoryListener* memory_listener() override { return memory_; }
    // The cell's memory recorder, handed to the engine with the step observer and told
    // where each step and evaluation ends.
    void set_memory_timeline(MemoryTimeline* timeline) { memory_ = timeline; }

    // Intervals on the clock's time base, in order; steps inside them.
    [[nodiscard]] const std::vector<TimeInterval>& intervals() const { return intervals_; }
    [[nodiscard]] std::int64_t measured_steps() const { return measured_steps_; }

  private:
    workloads::TrainingObserver* next_;
    Clock clock_;
    std::optional<std::int64_t> next_start_ns_;  // when the next step begins, if known
    bool open_ = false;                          // the last interval can still grow
    std::vector<TimeInterval> intervals_;
    std::int64_t measured_steps_ = 0;
    MemoryTimeline* memory_ = nullptr;
};

}  // namespace trainscope::harness
