#include "workloads/optim/Sgd.hpp"

namespace trainscope::workloads {

Sgd::Sgd(const FlatParameters& parameters, StepContext& context, SgdSettings settings)
    : velocities_(parameters.make_state(context)), settings_(settings) {
    for (const FlatParameters::Span& span : parameters.spans()) {
        spans_.push_back(Span{FlatParameters::under(parameters.masters(), span), span.gradients,
                              FlatParameters::under(velocities_, span)});
    }
}

void Sgd::step(StepContext& context, double grad_factor, const Tensor& skip_if_overflow) {
    for (Span& span : spans_) {
        context.backend.sgd_update(span.values, span.gradients, span.velocities, settings_,
                                   grad_factor, skip_if_overflow);
    }
}

}  // namespace trainscope::workloads
