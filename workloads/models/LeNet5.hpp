#pragma once

#include <memory>

#include "workloads/layers/Pool2d.hpp"
#include "workloads/models/Model.hpp"

namespace trainscope::workloads {

// LeNet-5 as usually trained today: conv 5x5x6 (pad 2) -> ReLU -> pool 2 -> conv 5x5x16
// -> ReLU -> pool 2 -> dense 120 -> ReLU -> dense 84 -> ReLU -> dense. Pooling is the
// classic average or the common max variant.
std::unique_ptr<Model> make_lenet5(const Shape& input_shape, int classes, PoolKind pool);

}  // namespace trainscope::workloads
