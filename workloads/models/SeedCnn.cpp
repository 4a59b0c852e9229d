#include "workloads/models/SeedCnn.hpp"

#include "workloads/layers/Conv2d.hpp"
#include "workloads/layers/Dense.hpp"
#include "workloads/layers/Flatten.hpp"
#include "workloads/layers/Pool2d.hpp"
#include "workloads/layers/Relu.hpp"

namespace trainscope::workloads {

std::unique_ptr<Model> make_seed_cnn(const Shape& input_shape, int classes) {
    std::vector<std::unique_ptr<Layer>> layers;
    layers.push_back(std::make_unique<Conv2d>(input_shape, 32, 3, Conv2dGeometry{1, 0}, true));
    layers.push_back(std::make_unique<Relu>(layers.back()->output_shape()));
    layers.push_back(std::make_unique<Pool2d>(layers.back()->output_shape(), PoolKind::max,
                                              Pool2dGeometry{2, 2, 0}));
    layers.push_back(std::make_unique<Flatten>(layers.back()->output_shape()));
    layers.push_back(std::make_unique<Dense>(layers.back()->output_shape(), classes));
    return std::make_unique<Model>("seed-cnn", input_shape, std::move(layers));
}

}  // namespace trainscope::workloads
