#include <gtest/gtest.h>

#include "workloads/training/TrainingSession.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

// The reference workload's acceptance bar: PyTorch reaches 0.858 with the same model,
// initialization, optimizer and batch after one epoch of Fashion-MNIST.
TEST(WorkloadsSeedCnnConvergence, OneEpochBatch64ReachesAtLeast084) {
    TS_REQUIRE_FASHION_MNIST();
    TrainingConfig config;
    config.model = "seed-cnn";
    config.batch = 64;
    config.epochs = 1;
    config.seed = 1;
    config.threads = 2;
    config.allocator =
        Allocator::pool;  // same numbers as device, less time in the kernel's allocator
    const TrainingResult result = run_training(config, nullptr);
    ASSERT_FALSE(result.evaluations.empty());
    EXPECT_GE(result.evaluations.back().test_accuracy, 0.84);
    EXPECT_EQ(result.steps.size(), 60000u / 64u);
    EXPECT_EQ(result.parameter_count, 54410);
    EXPECT_FALSE(result.emulated);
    std::printf("seed-cnn 1 epoch: accuracy %.4f loss %.4f train %.2f s\n",
                result.evaluations.back().test_accuracy, result.evaluations.back().test_loss,
                static_cast<double>(result.train_time_ns) * 1e-9);
}

}  // namespace
}  // namespace trainscope::workloads
