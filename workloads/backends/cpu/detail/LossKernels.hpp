#pragma once

#include <cstdint>

#include "workloads/backend/OpGeometry.hpp"

namespace trainscope::workloads::cpu {

// Mean softmax cross-entropy over rows of logits [rows, classes]; dlogits (nullable)
// gets loss_scale * (softmax - onehot) / rows. Sums in double.
template <typename T>
void softmax_cross_entropy(std::int64_t rows, std::int64_t classes, const T* logits,
                           const std::int32_t* labels, double loss_scale, T* dlogits,
                           CrossEntropyTotals& totals);

}  // namespace trainscope::workloads::cpu
