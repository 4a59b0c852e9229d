#include "workloads/optim/Sgd.hpp"

#include "workloads/layers/ParameterGroups.hpp"

namespace trainscope::workloads {

Sgd::Sgd(std::vector<Parameter*> parameters, StepContext& context, SgdSettings settings)
    : parameters_(std::move(parameters)), settings_(settings) {
    for (Parameter* p : parameters_) {
        velocities_.push_back(context.make_master(p->shape));
        context.backend.fill(velocities_.back(), 0.0);
    }
    for (const std::vector<std::size_t>& positions : group_by_gradient_dtype(parameters_)) {
        Group& group = groups_.emplace_back();
        for (std::size_t i : positions) {
            group.values.push_back(&parameters_[i]->value);
            group.gradients.push_back(&parameters_[i]->gradient);
            group.velocities.push_back(&velocities_[i]);
        }
    }
}

void Sgd::step(StepContext& context, double grad_factor, const Tensor& skip_if_overflow) {
    for (const Group& group : groups_) {
        context.backend.sgd_update_multi(group.values, group.gradients, group.velocities, settings_,
                                         grad_factor, skip_if_overflow);
    }
}

}  // namespace trainscope::workloads
