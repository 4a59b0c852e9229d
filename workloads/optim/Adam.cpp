#include "workloads/optim/Adam.hpp"

namespace trainscope::workloads {

Adam::Adam(const FlatParameters& parameters, StepContext& context, AdamSettings settings)
    : first_moments_(parameters.make_state(context)),
      second_moments_(parameters.make_state(context)),
      settings_(settings) {
    settings_.step = 0;
    for (const FlatParameters::Span& span : parameters.spans()) {
        spans_.push_back(Span{FlatParameters::under(parameters.masters(), span), span.gradients,
                              FlatParameters::under(first_moments_, span),
                              FlatParameters::under(second_moments_, span)});
    }
}

void Adam::step(StepContext& context, double grad_factor, const Tensor& skip_if_overflow) {
    settings_.step = applied_steps_ + 1;
    for (Span& span : spans_) {
        context.backend.adam_update(span.values, span.gradients, span.first_moments,
                                    span.second_moments, settings_, grad_factor, skip_if_overflow);
    }
}

void Adam::finish_step(bool applied) {
    if (applied) {
        ++applied_steps_;
    }
}

}  // namespace trainscope::workloads
