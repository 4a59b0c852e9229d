#pragma once

#include <memory>

#include "workloads/models/Model.hpp"

namespace trainscope::workloads {

// CIFAR-style ResNet (He et al. 2016, section 4.2): conv 3x3 (width) -> BN -> ReLU, then
// three stages of n basic blocks with width, 2*width, 4*width channels, the second and
// third starting with a stride-2 block, then global average pooling and a dense layer.
// depth = 6n + 2. Shortcuts that change shape are 1x1 convolutions with batch norm.
std::unique_ptr<Model> make_resnet(const Shape& input_shape, int classes, int depth, int width);

}  // namespace trainscope::workloads
