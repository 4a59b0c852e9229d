#include "workloads/models/LeNet5.hpp"

#include "workloads/layers/Conv2d.hpp"
#include "workloads/layers/Dense.hpp"
#include "workloads/layers/Flatten.hpp"
#include "workloads/layers/Relu.hpp"

namespace trainscope::workloads {

std::unique_ptr<Model> make_lenet5(const Shape& input_shape, int classes, PoolKind pool) {
    std::vector<std::unique_ptr<Layer>> layers;
    auto add = [&layers](std::unique_ptr<Layer> layer) { layers.push_back(std::move(layer)); };
    auto last = [&layers]() -> const Shape& { return layers.back()->output_shape(); };
    add(std::make_unique<Conv2d>(input_shape, 6, 5, Conv2dGeometry{1, 2}, true));
    add(std::make_unique<Relu>(last()));
    add(std::make_unique<Pool2d>(last(), pool, Pool2dGeometry{2, 2, 0}));
    add(std::make_unique<Conv2d>(last(), 16, 5, Conv2dGeometry{1, 0}, true));
    add(std::make_unique<Relu>(last()));
    add(std::make_unique<Pool2d>(last(), pool, Pool2dGeometry{2, 2, 0}));
    add(std::make_unique<Flatten>(last()));
    add(std::make_unique<Dense>(last(), 120));
    add(std::make_unique<Relu>(last()));
    add(std::make_unique<Dense>(last(), 84));
    add(std::make_unique<Relu>(last()));
    add(std::make_unique<Dense>(last(), classes));
    return std::make_unique<Model>("lenet5", input_shape, std::move(layers));
}

}  // namespace trainscope::workloads
