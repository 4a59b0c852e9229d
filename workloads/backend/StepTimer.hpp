#pragma once

#include <chrono>
#include <cstdint>

namespace trainscope::workloads {

// Times one training step on the backend's own clock: started before the step's first
// operation is queued, stopped once, right after the step's last is queued. stop_ns()
// waits for the work queued in between and returns the elapsed time in nanoseconds (the
// device's clock on a GPU, so the host's wake-up after the last kernel is not counted).
class StepTimer {
  public:
    virtual ~StepTimer() = default;
    virtual std::int64_t stop_ns() = 0;
};

// The host's monotonic clock: right for a backend whose operations have finished when
// they return (the CPU backend).
class SteadyClockStepTimer final : public StepTimer {
  public:
    std::int64_t stop_ns() override {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now() - start_)
            .count();
    }

  private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace trainscope::workloads
