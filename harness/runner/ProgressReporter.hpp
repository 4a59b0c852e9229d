#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "workloads/training/TrainingResult.hpp"

namespace trainscope::harness {

enum class ProgressStyle { Quiet, Lines, Bar };

// Picks Bar when stderr is a terminal, plain Lines otherwise.
ProgressStyle default_progress_style();

// Shows one cell's training progress on stderr: cell i/N, its label, step, loss,
// images/s and ETA. At most a few updates a second; never slows a step down by more
// than a clock read.
class ProgressReporter : public workloads::TrainingObserver {
  public:
    ProgressReporter(ProgressStyle style, int cell_index, int cell_count, std::string label,
                     std::int64_t expected_steps, int batch);

    bool on_step(const workloads::StepRecord& step) override;
    void on_eval(const workloads::EvalRecord& eval) override;
    void finish();

  private:
    void print(const workloads::StepRecord& step, bool final_line);

    ProgressStyle style_;
    int cell_index_;
    int cell_count_;
    std::string label_;
    std::int64_t expected_steps_;
    int batch_;
    std::int64_t steps_seen_ = 0;
    std::int64_t measured_ns_ = 0;
    std::int64_t measured_steps_ = 0;
    workloads::StepRecord last_{};
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point last_print_ = started_;
    bool printed_bar_ = false;
};

}  // namespace trainscope::harness
