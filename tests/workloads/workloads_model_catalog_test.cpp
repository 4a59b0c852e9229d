// The model catalog: names, parameters and parameter counts (checked against the
// layer arithmetic written out by hand).
#include <gtest/gtest.h>

#include "workloads/models/ModelCatalog.hpp"

namespace trainscope::workloads {
namespace {

TEST(WorkloadsModelCatalog, ListsTheThreeModels) {
    const std::vector<ModelInfo> models = model_catalog();
    ASSERT_EQ(models.size(), 3u);
    EXPECT_EQ(models[0].name, "seed-cnn");
    EXPECT_EQ(models[1].name, "lenet5");
    ASSERT_EQ(models[1].parameters.size(), 1u);
    EXPECT_EQ(models[1].parameters[0].name, "pool");
    EXPECT_EQ(models[2].name, "resnet");
    ASSERT_EQ(models[2].parameters.size(), 2u);
    EXPECT_EQ(models[2].parameters[0].name, "depth");
    EXPECT_EQ(models[2].parameters[0].default_value, "20");
    EXPECT_EQ(models[2].parameters[1].name, "width");
}

TEST(WorkloadsModelCatalog, SeedCnnParameterCount) {
    // conv 1->32 3x3 with bias, dense 32*13*13 -> 10 with bias
    EXPECT_EQ(parameter_count("seed-cnn", {}, Shape{1, 28, 28}, 10),
              32 * 9 + 32 + 32 * 13 * 13 * 10 + 10);
    TrainingConfig config;
    config.dataset = "synthetic";
    config.input_shape = "3x32x32";
    config.classes = 100;
    EXPECT_EQ(parameter_count(config), 32 * 27 + 32 + 32 * 15 * 15 * 100 + 100);
}

TEST(WorkloadsModelCatalog, LeNet5ParameterCount) {
    const std::int64_t expected =
        (6 * 25 + 6) + (16 * 6 * 25 + 16) + (400 * 120 + 120) + (120 * 84 + 84) + (84 * 10 + 10);
    EXPECT_EQ(parameter_count("lenet5", {}, Shape{1, 28, 28}, 10), expected);
    EXPECT_EQ(parameter_count("lenet5", {{"pool", "max"}}, Shape{1, 28, 28}, 10), expected);
}

// Basic blocks: two 3x3 convolutions without bias and two batch norms; projection
// shortcuts add a 1x1 convolution and a batch norm.
std::int64_t resnet_count(int depth, std::int64_t width, std::int64_t in_channels, int classes) {
    const int n = (depth - 2) / 6;
    std::int64_t count = in_channels * width * 9 + 2 * width;
    std::int64_t channels = width;
    for (int stage = 0; stage < 3; ++stage) {
        const std::int64_t out = width << stage;
        for (int block = 0; block < n; ++block) {
            count += channels * out * 9 + 2 * out + out * out * 9 + 2 * out;
            if (channels != out) {
                count += channels * out + 2 * out;
            }
            channels = out;
        }
    }
    return count + channels * classes + classes;
}

TEST(WorkloadsModelCatalog, ResNetParameterCounts) {
    EXPECT_EQ(parameter_count("resnet", {{"depth", "8"}, {"width", "16"}}, Shape{1, 28, 28}, 10),
              resnet_count(8, 16, 1, 10));
    EXPECT_EQ(parameter_count("resnet", {}, Shape{3, 32, 32}, 10), resnet_count(20, 16, 3, 10));
    // ResNet-20 on CIFAR-10 is known to have about 0.27 M parameters.
    EXPECT_NEAR(static_cast<double>(resnet_count(20, 16, 3, 10)), 0.27e6, 0.01e6);
}

}  // namespace
}  // namespace trainscope::workloads
