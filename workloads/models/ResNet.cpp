#include "workloads/models/ResNet.hpp"

#include <stdexcept>

#include "workloads/layers/BatchNorm2d.hpp"
#include "workloads/layers/Conv2d.hpp"
#include "workloads/layers/Dense.hpp"
#include "workloads/layers/GlobalAvgPool.hpp"
#include "workloads/layers/Relu.hpp"
#include "workloads/layers/ResidualBlock.hpp"

namespace trainscope::workloads {

std::unique_ptr<Model> make_resnet(const Shape& input_shape, int classes, int depth, int width) {
    if (depth < 8 || (depth - 2) % 6 != 0) {
        throw std::logic_error("make_resnet: depth must be 6n+2 (checked by the catalog)");
    }
    const int blocks_per_stage = (depth - 2) / 6;
    std::vector<std::unique_ptr<Layer>> layers;
    auto last = [&layers]() -> const Shape& { return layers.back()->output_shape(); };
    layers.push_back(std::make_unique<Conv2d>(input_shape, width, 3, Conv2dGeometry{1, 1}, false));
    layers.push_back(std::make_unique<BatchNorm2d>(last()));
    layers.push_back(std::make_unique<Relu>(last()));
    for (int stage = 0; stage < 3; ++stage) {
        const std::int64_t channels = static_cast<std::int64_t>(width) << stage;
        for (int block = 0; block < blocks_per_stage; ++block) {
            const int stride = stage > 0 && block == 0 ? 2 : 1;
            layers.push_back(std::make_unique<ResidualBlock>(last(), channels, stride));
        }
    }
    layers.push_back(std::make_unique<GlobalAvgPool>(last()));
    layers.push_back(std::make_unique<Dense>(last(), classes));
    return std::make_unique<Model>("resnet", input_shape, std::move(layers));
}

}  // namespace trainscope::workloads
