#include "workloads/optim/Sgd.hpp"

namespace trainscope::workloads {

Sgd::Sgd(std::vector<Parameter*> parameters, StepContext& context, SgdSettings settings)
    : parameters_(std::move(parameters)), settings_(settings) {
    for (Parameter* p : parameters_) {
        velocities_.push_back(context.make_master(p->shape));
        context.backend.fill(velocities_.back(), 0.0);
    }
}

void Sgd::step(StepContext& context, double grad_factor, const Tensor& skip_if_overflow) {
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        context.backend.sgd_update(parameters_[i]->value, parameters_[i]->gradient, velocities_[i],
                                   settings_, grad_factor, skip_if_overflow);
    }
}

}  // namespace trainscope::workloads
