#include "workloads/layers/FlatParameters.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace trainscope::workloads {
namespace {

std::int64_t round_up(std::int64_t value, std::int64_t unit) {
    return (value + unit - 1) / unit * unit;
}

}  // namespace

FlatParameters::FlatParameters(const std::vector<Parameter*>& parameters, StepContext& context)
    : parameters_(parameters), offsets_(parameters.size(), 0) {
    const bool mixed = context.policy.storage_rounding != StorageRounding::none;
    const DType master = context.master_dtype();
    const auto has_copy = [&](const Parameter& p) { return mixed && !p.keep_master_precision; };
    // As cuDNN takes them: a parameter computing with its master gets a master-dtype
    // gradient; the others get theirs in the storage dtype, like activations.
    const auto gradient_dtype = [&](const Parameter& p) {
        return p.keep_master_precision ? master : context.dtype;
    };
    // Offsets in elements that are a multiple of this are 256-byte aligned in every buffer,
    // whose elements are at least as wide as the narrowest.
    const auto unit = static_cast<std::int64_t>(
        kParameterAlignmentBytes / std::min(dtype_bytes(master), dtype_bytes(context.dtype)));

    std::vector<std::size_t> order;
    for (const bool copies : {true, false}) {
        for (std::size_t i = 0; i < parameters_.size(); ++i) {
            if (has_copy(*parameters_[i]) == copies) {
                order.push_back(i);
            }
        }
    }
    std::int64_t copies_end = 0;
    std::vector<std::size_t> span_of(parameters_.size(), 0);
    std::vector<DType> span_dtypes;
    for (const std::size_t i : order) {
        const Parameter& p = *parameters_[i];
        offsets_[i] = layout_elements_;
        if (span_dtypes.empty() || span_dtypes.back() != gradient_dtype(p)) {
            for (const DType earlier : span_dtypes) {
                if (earlier == gradient_dtype(p)) {
                    throw std::logic_error("FlatParameters: the " +
                                           std::string(dtype_name(gradient_dtype(p))) +
                                           " gradients are not contiguous in the layout");
                }
            }
            spans_.emplace_back().begin = layout_elements_;
            span_dtypes.push_back(gradient_dtype(p));
        }
        span_of[i] = spans_.size() - 1;
        layout_elements_ = round_up(layout_elements_ + p.shape.elements(), unit);
        if (has_copy(p)) {
            copies_end = layout_elements_;
        }
    }
    if (parameters_.empty()) {
        return;
    }
    for (std::size_t s = 0; s < spans_.size(); ++s) {
        Span& span = spans_[s];
        const std::int64_t end = s + 1 < spans_.size() ? spans_[s + 1].begin : layout_elements_;
        span.elements = end - span.begin;
        span.gradients =
            context.tensors.allocate(Shape{span.elements}, span_dtypes[s], TensorClass::gradients);
        context.backend.fill(span.gradients, 0.0);
    }
    masters_ = context.tensors.allocate(Shape{layout_elements_}, master, TensorClass::weights);
    context.backend.fill(masters_, 0.0);
    if (copies_end > 0) {
        compute_copies_ = context.make(Shape{copies_end}, TensorClass::weights);
        context.backend.fill(compute_copies_, 0.0);
    }
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        Parameter& p = *parameters_[i];
        const Span& span = spans_[span_of[i]];
        p.value = masters_.view(offsets_[i], p.shape);
        p.gradient = span.gradients.view(offsets_[i] - span.begin, p.shape);
        p.compute_copy = has_copy(p) ? compute_copies_.view(offsets_[i], p.shape) : Tensor();
    }
}

Tensor FlatParameters::make_state(StepContext& context) const {
    if (layout_elements_ == 0) {
        return Tensor();
    }
    Tensor state = context.tensors.allocate(Shape{layout_elements_}, masters_.dtype(),
                                            TensorClass::optimizer_state);
    context.backend.fill(state, 0.0);
    return state;
}

Tensor FlatParameters::under(const Tensor& master_layout, const Span& span) {
    return master_layout.view(span.begin, Shape{span.elements});
}

void FlatParameters::upload_masters(StepContext& context, const std::vector<double>& values) const {
    if (static_cast<std::int64_t>(values.size()) != layout_elements_) {
        throw std::logic_error("FlatParameters::upload_masters: " + std::to_string(values.size()) +
                               " values for a layout of " + std::to_string(layout_elements_));
    }
    if (layout_elements_ == 0) {
        return;
    }
    Tensor masters = masters_;
    upload_master_values(context, values, masters);
}

void upload_master_values(StepContext& context, const std::vector<double>& values,
                          Tensor& destination) {
    if (destination.dtype() == DType::f64) {
        context.backend.copy_from_host(values.data(), destination);
        return;
    }
    const std::vector<float> narrowed(values.begin(), values.end());
    context.backend.copy_from_host(narrowed.data(), destination);
}

void FlatParameters::flag_non_finite_gradients(StepContext& context, Tensor& overflow) const {
    for (const Span& span : spans_) {
        context.backend.flag_non_finite(span.gradients, overflow);
    }
}

void FlatParameters::refresh_compute_copies(StepContext& context) const {
    if (compute_copies_.empty()) {
        return;
    }
    const Tensor source = masters_.view(0, compute_copies_.shape());
    Tensor copies = compute_copies_;
    if (copies.dtype() != source.dtype()) {
        context.backend.convert(source, copies);  // f32 master -> f16/bf16
        return;
    }
    // f32 holding values rounded to fp16/bf16 (emulated).
    context.backend.copy(source, copies);
    context.round_result(copies);
}

}  // namespace trainscope::workloads
