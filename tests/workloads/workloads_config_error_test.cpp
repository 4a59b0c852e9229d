// Bad input to run_training: every ConfigError names the parameter and says what is valid.
#include <gtest/gtest.h>

#include <limits>

#include "workloads/training/TrainingSession.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

std::string error_of(const TrainingConfig& config) {
    try {
        run_training(config, nullptr);
    } catch (const ConfigError& error) {
        return error.what();
    }
    return "";
}

TrainingConfig synthetic(const std::string& model, const std::string& shape) {
    TrainingConfig config;
    config.model = model;
    config.dataset = "synthetic";
    config.input_shape = shape;
    config.batch = 4;
    config.steps = 1;
    config.evaluate = false;
    return config;
}

void expect_mentions(const std::string& message, std::initializer_list<const char*> words) {
    ASSERT_FALSE(message.empty()) << "no ConfigError";
    for (const char* word : words) {
        EXPECT_NE(message.find(word), std::string::npos) << "'" << word << "' not in: " << message;
    }
}

TEST(WorkloadsConfigError, UnknownModel) {
    expect_mentions(error_of(synthetic("vgg", "1x28x28")),
                    {"model", "vgg", "seed-cnn", "lenet5", "resnet"});
}

TEST(WorkloadsConfigError, LossScaleSettingsOutOfRange) {
    TrainingConfig config = synthetic("seed-cnn", "1x28x28");
    config.precision = Precision::fp16;
    config.initial_loss_scale = 0.0;
    expect_mentions(error_of(config), {"initial_loss_scale", "positive", "65536"});
    config.initial_loss_scale = std::numeric_limits<double>::infinity();
    expect_mentions(error_of(config), {"initial_loss_scale", "finite"});
    config.initial_loss_scale = 1024.0;
    config.loss_scale_growth_interval = 0;
    expect_mentions(error_of(config), {"loss_scale_growth_interval", "at least 1"});
}

TEST(WorkloadsConfigError, DepthNotSixNPlusTwo) {
    TrainingConfig config = synthetic("resnet", "3x8x8");
    config.model_params = {{"depth", "10"}};
    expect_mentions(error_of(config), {"depth", "10", "6n+2", "8, 14, 20"});
}

TEST(WorkloadsConfigError, UnknownModelParameter) {
    TrainingConfig config = synthetic("resnet", "3x8x8");
    config.model_params = {{"layers", "8"}};
    expect_mentions(error_of(config), {"layers", "depth", "width"});
}

TEST(WorkloadsConfigError, InputShapeTheModelCannotTake) {
    expect_mentions(error_of(synthetic("seed-cnn", "1x3x3")), {"input_shape", "1x3x3", "seed-cnn"});
    expect_mentions(error_of(synthetic("lenet5", "1x8x8")), {"input_shape", "1x8x8", "lenet5"});
    expect_mentions(error_of(synthetic("seed-cnn", "28x28")), {"input_shape", "CxHxW"});
}

TEST(WorkloadsConfigError, BatchLargerThanTheDataset) {
    TS_REQUIRE_FASHION_MNIST();
    TrainingConfig config;
    config.batch = 70000;
    config.steps = 1;
    expect_mentions(error_of(config), {"batch", "70000", "60000"});
}

TEST(WorkloadsConfigError, MissingDatasetFolderNamesPathAndBootstrap) {
    TrainingConfig config;
    config.dataset_dir = "/nonexistent/fashion";
    expect_mentions(error_of(config),
                    {"/nonexistent/fashion", "scripts/bootstrap", "dataset-fashion-mnist"});
}

TEST(WorkloadsConfigError, MnistNeedsAFolder) {
    TrainingConfig config;
    config.dataset = "mnist";
    expect_mentions(error_of(config), {"dataset_dir", "mnist"});
}

template <class Parse>
std::string parse_error_of(Parse parse, const char* text) {
    try {
        parse(text);
    } catch (const ConfigError& error) {
        return error.what();
    }
    return "";
}

// The axes are typed: a spelling outside the vocabulary is refused where text is parsed.
TEST(WorkloadsConfigError, PrecisionOptimizerAndCounts) {
    expect_mentions(parse_error_of(parse_precision, "fp8"), {"precision", "fp8", "bf16"});
    expect_mentions(parse_error_of(parse_optimizer, "lamb"), {"optimizer", "lamb", "adam", "sgd"});
    TrainingConfig config = synthetic("seed-cnn", "1x8x8");
    config.batch = 0;
    expect_mentions(error_of(config), {"batch"});
}

TEST(WorkloadsConfigError, CudaOnlyMemoryAxesOnTheCpu) {
    TrainingConfig config = synthetic("seed-cnn", "1x8x8");
    config.allocator = Allocator::async;
    expect_mentions(error_of(config), {"allocator", "async", "CUDA", "device", "pool"});
    config.allocator = Allocator::managed;
    expect_mentions(error_of(config), {"allocator", "managed"});
    config = synthetic("seed-cnn", "1x8x8");
    config.host_memory = HostMemory::pinned;
    expect_mentions(error_of(config), {"host_memory", "pinned", "n/a"});
    config = synthetic("seed-cnn", "1x8x8");
    config.transfer = Transfer::overlap;
    expect_mentions(error_of(config), {"transfer", "overlap"});
    config = synthetic("seed-cnn", "1x8x8");
    config.placement = Placement::resident;
    expect_mentions(error_of(config), {"placement", "resident"});
}

// A run records a CUDA-only axis on the cpu as n/a; the engine then gets its default.
TEST(WorkloadsConfigError, NotApplicableAxesAreAccepted) {
    TrainingConfig config = synthetic("seed-cnn", "1x8x8");
    config.host_memory = HostMemory::pageable;
    config.transfer = Transfer::sync;
    config.placement = Placement::stream;
    config.allocator = Allocator::pool;
    EXPECT_EQ(error_of(config), "");
}

TEST(WorkloadsConfigError, CudaBackendNotRegistered) {
    TrainingConfig config = synthetic("seed-cnn", "1x8x8");
    config.backend = "cuda";
    expect_mentions(error_of(config), {"backend", "cuda", "cpu"});
}

}  // namespace
}  // namespace trainscope::workloads
