#include "workloads/numerics/LossScaler.hpp"

namespace trainscope::workloads {

LossScaler::LossScaler(Settings settings) : settings_(settings), scale_(settings.initial_scale) {}

bool LossScaler::update(bool gradients_finite) {
    if (!gradients_finite) {
        scale_ *= settings_.backoff_factor;
        clean_steps_ = 0;
        ++skipped_steps_;
        return false;
    }
    ++clean_steps_;
    if (clean_steps_ == settings_.growth_interval) {
        scale_ *= settings_.growth_factor;
        clean_steps_ = 0;
    }
    return true;
}

}  // namespace trainscope::workloads
