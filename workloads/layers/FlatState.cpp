#include "workloads/layers/FlatState.hpp"

#include <algorithm>

#include "workloads/layers/FlatParameters.hpp"

namespace trainscope::workloads {

FlatState::FlatState(const std::vector<StateBuffer*>& buffers, StepContext& context)
    : offsets_(buffers.size(), 0) {
    const DType master = context.master_dtype();
    const auto unit = static_cast<std::int64_t>(kParameterAlignmentBytes / dtype_bytes(master));
    std::int64_t elements = 0;
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        offsets_[i] = elements;
        elements += (buffers[i]->shape.elements() + unit - 1) / unit * unit;
    }
    if (elements == 0) {
        return;
    }
    std::vector<double> initial(static_cast<std::size_t>(elements), 0.0);
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        const auto first = initial.begin() + offsets_[i];
        std::fill(first, first + buffers[i]->shape.elements(), buffers[i]->initial_value);
    }
    // Batch-norm running statistics: model state that lives as long as the weights.
    values_ = context.tensors.allocate(Shape{elements}, master, TensorClass::weights);
    upload_master_values(context, initial, values_);
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        buffers[i]->value = values_.view(offsets_[i], buffers[i]->shape);
    }
}

}  // namespace trainscope::workloads
