// The optimizer, the finite check and the refresh of the 16-bit weight copies cost a fixed
// number of backend calls per step, whatever the parameter count (issue 14, item 2: the
// parameters live in one flat buffer per role and dtype, and each of those operations runs
// over whole buffers). Counted by the counting layer on the CPU: seed-cnn (4 parameter
// tensors) against ResNet-8 (29). The CPU emulates fp16 with f32 copies holding rounded
// values (one copy and one round_storage of the flat buffer); CUDA converts (convert,
// asserted in CudaStepWindow.*).
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "workloads/training/TrainingSession.hpp"

namespace trainscope::workloads {
namespace {

TrainingResult fp16_run(const std::string& model) {
    TrainingConfig config;
    config.model = model;
    if (model == "resnet") {
        config.model_params = {{"depth", "8"}, {"width", "16"}};
    }
    config.dataset = "synthetic";
    config.input_shape = "1x28x28";
    config.classes = 10;
    config.batch = 8;
    config.steps = 4;
    config.warmup_steps = 1;
    config.threads = 2;
    config.precision =
        Precision::fp16;  // loss scaling: the finite check runs; 16-bit weight copies
    config.evaluate = false;
    return run_training(config, nullptr);
}

// Calls per measured step of the named operations together (a missing metric: 0 calls).
double calls(const TrainingResult& result, std::initializer_list<const char*> ops) {
    double sum = 0.0;
    for (const char* op : ops) {
        const auto it = result.extra_metrics.find(std::string("op_") + op + "_per_step");
        sum += it == result.extra_metrics.end() ? 0.0 : it->second;
    }
    return sum;
}

TEST(WorkloadsParameterCount, OptimizerFiniteCheckAndCastCallsDoNotGrowWithParameters) {
    const TrainingResult small = fp16_run("seed-cnn");
    const TrainingResult large = fp16_run("resnet");
    ASSERT_GT(large.parameter_count, small.parameter_count);
    EXPECT_EQ(calls(large, {"adam_update", "sgd_update"}),
              calls(small, {"adam_update", "sgd_update"}));
    EXPECT_EQ(calls(large, {"adam_update", "sgd_update"}), 1.0) << "one update over the buffers";
    EXPECT_EQ(calls(large, {"flag_non_finite"}), calls(small, {"flag_non_finite"}));
    EXPECT_EQ(calls(large, {"flag_non_finite"}), 1.0) << "one check of the gradient buffer";
    const std::initializer_list<const char*> casts{"convert", "copy"};
    EXPECT_EQ(calls(large, casts), calls(small, casts));
    EXPECT_EQ(calls(large, {"copy"}), 1.0) << "one refresh of the copies a step";
    // Gradients are written, never accumulated, so no step zeroes them (FlatParameters
    // zero-fills each flat buffer once); the one fill a step is the overflow flag's.
    EXPECT_EQ(calls(large, {"fill"}), calls(small, {"fill"}));
    EXPECT_EQ(calls(large, {"fill"}), 1.0);
}

}  // namespace
}  // namespace trainscope::workloads
