#pragma once

#include <cstdint>

namespace trainscope::workloads {

// Dynamic loss scaling for fp16 training: gradients are computed on loss * scale so small
// ones survive fp16; a step whose gradients overflowed is skipped and the scale halved,
// and after `growth_interval` clean steps in a row the scale doubles.
class LossScaler {
  public:
    struct Settings {
        double initial_scale = 65536.0;
        double backoff_factor = 0.5;
        double growth_factor = 2.0;
        std::int64_t growth_interval = 2000;
    };

    LossScaler() : LossScaler(Settings{}) {}
    explicit LossScaler(Settings settings);

    double scale() const { return scale_; }
    std::int64_t skipped_steps() const { return skipped_steps_; }

    // Records the outcome of one step's gradients; returns true when the optimizer
    // may apply them, false when the step must be skipped.
    bool update(bool gradients_finite);

  private:
    Settings settings_;
    double scale_;
    std::int64_t clean_steps_ = 0;
    std::int64_t skipped_steps_ = 0;
};

}  // namespace trainscope::workloads
