// The optimizer, the finite check and the refresh of the 16-bit weight copies cost a fixed
// number of backend calls per step, whatever the parameter count (issue 14, item 2:
// multi-tensor operations, as PyTorch's foreach Adam). Counted by the counting layer on
// the CPU: seed-cnn (4 parameter tensors) against ResNet-8 (29). The CPU emulates fp16
// with f32 copies holding rounded values (round_copy_multi); CUDA converts (convert_multi,
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
    EXPECT_EQ(calls(large, {"adam_update", "adam_update_multi", "sgd_update", "sgd_update_multi"}),
              calls(small, {"adam_update", "adam_update_multi", "sgd_update", "sgd_update_multi"}));
    EXPECT_EQ(calls(large, {"flag_non_finite", "flag_non_finite_multi"}),
              calls(small, {"flag_non_finite", "flag_non_finite_multi"}));
    const std::initializer_list<const char*> casts{"convert", "convert_multi", "round_copy_multi"};
    EXPECT_EQ(calls(large, casts), calls(small, casts));
    EXPECT_EQ(calls(large, {"round_copy_multi"}), 1.0) << "one refresh of the copies a step";
}

}  // namespace
}  // namespace trainscope::workloads
