#pragma once

#include <cstddef>
#include <vector>

#include "workloads/layers/Parameter.hpp"

namespace trainscope::workloads {

// Positions in `parameters` grouped by the dtype of their gradients, groups in order of
// first appearance, positions ascending. A multi-tensor backend call (Backend::
// adam_update_multi and the others) takes tensors of one dtype per list position, so the
// per-step parameter work makes one call per group: one group when every gradient has the
// master dtype, two in natively stored fp16/bf16 (batch norm's gradients stay f32).
// Gradients must be allocated (Model::materialize) before grouping.
std::vector<std::vector<std::size_t>> group_by_gradient_dtype(
    const std::vector<Parameter*>& parameters);

}  // namespace trainscope::workloads
