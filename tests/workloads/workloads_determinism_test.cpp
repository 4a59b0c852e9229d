// Same seed, same loss curve, bit for bit; and the precision bookkeeping of runs.
#include <gtest/gtest.h>

#include <cmath>

#include "workloads/training/TrainingSession.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

TrainingConfig short_run(std::uint64_t seed) {
    TrainingConfig config;
    config.model = "seed-cnn";
    config.batch = 32;
    config.steps = 40;
    config.threads = 2;
    config.seed = seed;
    config.evaluate = false;
    return config;
}

std::vector<double> losses(const TrainingResult& result) {
    std::vector<double> values;
    for (const StepRecord& step : result.steps) {
        values.push_back(step.loss);
    }
    return values;
}

TEST(WorkloadsDeterminism, SameSeedSameLossCurveBitForBit) {
    TS_REQUIRE_FASHION_MNIST();
    const std::vector<double> first = losses(run_training(short_run(7), nullptr));
    const std::vector<double> second = losses(run_training(short_run(7), nullptr));
    ASSERT_EQ(first.size(), 40u);
    EXPECT_EQ(first, second);
    const std::vector<double> other = losses(run_training(short_run(8), nullptr));
    EXPECT_NE(first, other);
}

TEST(WorkloadsDeterminism, ResNetWithBatchNormOnSyntheticData) {
    TrainingConfig config;
    config.model = "resnet";
    config.model_params = {{"depth", "8"}, {"width", "4"}};
    config.dataset = "synthetic";
    config.input_shape = "3x10x10";
    config.classes = 5;
    config.batch = 8;
    config.steps = 10;
    config.threads = 2;
    config.optimizer = OptimizerKind::sgd;
    config.learning_rate = 0.05;
    config.weight_decay = 1e-4;
    config.eval_every_steps = 5;
    const TrainingResult a = run_training(config, nullptr);
    const TrainingResult b = run_training(config, nullptr);
    EXPECT_EQ(losses(a), losses(b));
    ASSERT_EQ(a.evaluations.size(), 2u);  // after steps 5 and 10
    EXPECT_EQ(a.evaluations[0].after_step, 5);
    EXPECT_EQ(a.evaluations[1].test_accuracy, b.evaluations[1].test_accuracy);
}

class StopAfter final : public TrainingObserver {
  public:
    explicit StopAfter(int steps) : steps_(steps) {}
    bool on_step(const StepRecord& step) override { return step.index + 1 < steps_; }
    void on_eval(const EvalRecord& eval) override { evaluations.push_back(eval); }
    std::vector<EvalRecord> evaluations;

  private:
    int steps_;
};

TEST(WorkloadsDeterminism, ObserverStopsTheRunAndSeesTheFinalEvaluation) {
    TS_REQUIRE_FASHION_MNIST();
    TrainingConfig config = short_run(1);
    config.evaluate = true;
    config.warmup_steps = 3;
    config.target_accuracy = 0.05;  // any trained model beats it: the first evaluation
    StopAfter observer(12);
    const TrainingResult result = run_training(config, &observer);
    ASSERT_EQ(result.steps.size(), 12u);
    EXPECT_TRUE(result.steps[2].warmup);
    EXPECT_FALSE(result.steps[3].warmup);
    ASSERT_EQ(observer.evaluations.size(), 1u);
    EXPECT_EQ(observer.evaluations[0].after_step, 12);
    EXPECT_EQ(result.images_trained, 12 * 32);
    EXPECT_EQ(result.extra_metrics.at("steps_to_target"), 12.0);
    EXPECT_DOUBLE_EQ(result.extra_metrics.at("time_to_target_s"),
                     static_cast<double>(result.evaluations[0].train_time_ns) * 1e-9);
    EXPECT_GT(result.peak_tensor_bytes, 0);
    EXPECT_NE(result.environment.at("blas").find("OpenBLAS"), std::string::npos);
    EXPECT_EQ(result.environment.at("threads"), "2");
}

TEST(WorkloadsPrecision, Fp16RunKeepsTheLossScalerInvariants) {
    TS_REQUIRE_FASHION_MNIST();
    TrainingConfig config = short_run(3);
    config.precision = Precision::fp16;
    config.steps = 30;
    const TrainingResult result = run_training(config, nullptr);
    EXPECT_TRUE(result.emulated);
    double expected_scale = 65536.0;
    std::int64_t skipped = 0;
    for (const StepRecord& step : result.steps) {
        EXPECT_EQ(step.loss_scale, expected_scale) << "step " << step.index;
        if (step.skipped) {
            expected_scale /= 2;  // no growth within 2000 steps
            ++skipped;
        }
        EXPECT_TRUE(std::isfinite(step.loss));
    }
    EXPECT_EQ(result.extra_metrics.at("skipped_steps"), static_cast<double>(skipped));
    // Training still learns: the last losses are below the first.
    EXPECT_LT(result.steps.back().loss, result.steps.front().loss);
}

// Large images make the filter gradients of loss * 65536 overflow fp16: the scaler must
// skip those steps, halve the scale, and training must go on with finite losses.
TEST(WorkloadsPrecision, Fp16OverflowSkipsStepsAndHalvesTheScale) {
    TrainingConfig config;
    config.dataset = "synthetic";
    config.input_shape = "3x64x64";
    config.batch = 32;
    config.steps = 12;
    config.threads = 2;
    config.seed = 3;
    config.precision = Precision::fp16;
    config.evaluate = false;
    const TrainingResult result = run_training(config, nullptr);
    std::int64_t skipped = 0;
    double expected_scale = 65536.0;
    for (const StepRecord& step : result.steps) {
        EXPECT_EQ(step.loss_scale, expected_scale) << "step " << step.index;
        EXPECT_TRUE(std::isfinite(step.loss)) << "step " << step.index;
        if (step.skipped) {
            expected_scale /= 2;
            ++skipped;
        }
    }
    EXPECT_GE(skipped, 1);
    EXPECT_LT(expected_scale, 65536.0);
    EXPECT_EQ(result.extra_metrics.at("skipped_steps"), static_cast<double>(skipped));
}

// GradScaler's init_scale and growth_interval: a small first scale never overflows and
// doubles after every `growth_interval` clean steps.
TEST(WorkloadsPrecision, Fp16LossScaleStartsWhereToldAndGrowsOnSchedule) {
    TrainingConfig config;
    config.dataset = "synthetic";
    config.input_shape = "1x28x28";
    config.batch = 8;
    config.steps = 10;
    config.threads = 1;
    config.precision = Precision::fp16;
    config.evaluate = false;
    config.initial_loss_scale = 8.0;
    config.loss_scale_growth_interval = 3;
    const TrainingResult result = run_training(config, nullptr);
    const std::vector<double> expected = {8, 8, 8, 16, 16, 16, 32, 32, 32, 64};
    ASSERT_EQ(result.steps.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(result.steps[i].loss_scale, expected[i]) << "step " << i;
        EXPECT_FALSE(result.steps[i].skipped) << "step " << i;
    }
    EXPECT_EQ(result.environment.at("loss_scaling"),
              "dynamic: first scale 8, x2 after 3 clean steps, x0.5 and the step skipped on "
              "inf/NaN gradients");
}

TEST(WorkloadsPrecision, EmulatedPrecisionsLearnAndNativeOnesAreNotEmulated) {
    TS_REQUIRE_FASHION_MNIST();
    for (const char* precision : {"fp64", "tf32", "bf16"}) {
        TrainingConfig config = short_run(2);
        config.precision = parse_precision(precision);
        config.steps = 25;
        const TrainingResult result = run_training(config, nullptr);
        EXPECT_EQ(result.emulated, std::string(precision) != "fp64") << precision;
        EXPECT_LT(result.steps.back().loss, result.steps.front().loss) << precision;
        for (const StepRecord& step : result.steps) {
            EXPECT_EQ(step.loss_scale, 1.0);
            EXPECT_FALSE(step.skipped);
        }
        EXPECT_EQ(result.environment.count("loss_scaling"), 0u) << precision;
    }
}

TEST(WorkloadsPrecision, EmulatedLossesDifferFromFp32ButStayClose) {
    TS_REQUIRE_FASHION_MNIST();
    TrainingConfig config = short_run(4);
    config.steps = 10;
    const std::vector<double> fp32 = losses(run_training(config, nullptr));
    for (const char* precision : {"tf32", "bf16", "fp64"}) {
        config.precision = parse_precision(precision);
        const std::vector<double> other = losses(run_training(config, nullptr));
        EXPECT_NE(other, fp32) << precision;
        EXPECT_NEAR(other.front(), fp32.front(), 0.05) << precision;
    }
}

}  // namespace
}  // namespace trainscope::workloads
