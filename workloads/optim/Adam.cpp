#include "workloads/optim/Adam.hpp"

namespace trainscope::workloads {

Adam::Adam(std::vector<Parameter*> parameters, StepContext& context, AdamSettings settings)
    : parameters_(std::move(parameters)), settings_(settings) {
    settings_.step = 0;
    for (Parameter* p : parameters_) {
        first_moments_.push_back(context.make_master(p->shape));
        second_moments_.push_back(context.make_master(p->shape));
        context.backend.fill(first_moments_.back(), 0.0);
        context.backend.fill(second_moments_.back(), 0.0);
    }
}

void Adam::step(StepContext& context, double grad_factor, const Tensor& skip_if_overflow) {
    settings_.step = applied_steps_ + 1;
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        context.backend.adam_update(parameters_[i]->value, parameters_[i]->gradient,
                                    first_moments_[i], second_moments_[i], settings_, grad_factor,
                                    skip_if_overflow);
    }
}

void Adam::finish_step(bool applied) {
    if (applied) {
        ++applied_steps_;
    }
}

}  // namespace trainscope::workloads
