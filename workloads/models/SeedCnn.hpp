#pragma once

#include <memory>

#include "workloads/models/Model.hpp"

namespace trainscope::workloads {

// The reference workload: conv 3x3x32 (valid) -> ReLU -> max pool 2 -> flatten -> dense.
std::unique_ptr<Model> make_seed_cnn(const Shape& input_shape, int classes);

}  // namespace trainscope::workloads
