#pragma once

#include <chrono>
#include <cstdint>

namespace trainscope::workloads {

// Times one training step's window on the backend's own clock, one window after another
// (the backend keeps one and restarts it): started right before the
// step's first operation is queued (the batch is already staged), closed once, right
// after the step's last operation is queued. close() only marks the end (the host's
// clock on the CPU; an event queued on the compute stream on a GPU) and waits for
// nothing, so the host may stage the next batch before it asks elapsed_ns(), which waits
// for the marked end and returns the window in nanoseconds (the device's clock on a GPU:
// the host's wake-up after the last kernel is not counted).
class StepTimer {
  public:
    virtual ~StepTimer() = default;
    virtual void close() = 0;
    // After close().
    virtual std::int64_t elapsed_ns() = 0;

    // close() then elapsed_ns(), for a caller with nothing to do in between.
    std::int64_t stop_ns() {
        close();
        return elapsed_ns();
    }
};

// The host's monotonic clock: right for a backend whose operations have finished when
// they return (the CPU backend).
class SteadyClockStepTimer final : public StepTimer {
  public:
    void start() { start_ = end_ = std::chrono::steady_clock::now(); }
    void close() override { end_ = std::chrono::steady_clock::now(); }
    std::int64_t elapsed_ns() override {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(end_ - start_).count();
    }

  private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point end_ = start_;
};

}  // namespace trainscope::workloads
