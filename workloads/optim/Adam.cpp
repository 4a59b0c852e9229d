#include "workloads/optim/Adam.hpp"

#include "workloads/layers/ParameterGroups.hpp"

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
    for (const std::vector<std::size_t>& positions : group_by_gradient_dtype(parameters_)) {
        Group& group = groups_.emplace_back();
        for (std::size_t i : positions) {
            group.values.push_back(&parameters_[i]->value);
            group.gradients.push_back(&parameters_[i]->gradient);
            group.first_moments.push_back(&first_moments_[i]);
            group.second_moments.push_back(&second_moments_[i]);
        }
    }
}

void Adam::step(StepContext& context, double grad_factor, const Tensor& skip_if_overflow) {
    settings_.step = applied_steps_ + 1;
    for (const Group& group : groups_) {
        context.backend.adam_update_multi(group.values, group.gradients, group.first_moments,
                                          group.second_moments, settings_, grad_factor,
                                          skip_if_overflow);
    }
}

void Adam::finish_step(bool applied) {
    if (applied) {
        ++applied_steps_;
    }
}

}  // namespace trainscope::workloads
