// cuda_graph=true: two eager steps, one captured step, replays after it (fp16: a new
// capture whenever the loss scale changes). Each run trains to the losses of the same run
// without a graph (label gpu).
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>

#include "GpuTestSupport.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::workloads {
namespace {

TrainingConfig ten_cuda_steps(const std::string& model, const std::string& precision,
                              const std::string& optimizer) {
    TrainingConfig config;
    config.backend = "cuda";
    config.model = model;
    config.precision = parse_precision(precision);
    config.optimizer = parse_optimizer(optimizer);
    config.dataset = "synthetic";
    config.input_shape = model == "resnet" ? "3x32x32" : "1x28x28";
    config.classes = 10;
    config.batch = 16;
    config.steps = 10;
    config.warmup_steps = 0;
    config.seed = 5;
    if (model == "resnet") {
        config.model_params = {{"depth", "8"}, {"width", "8"}};
    }
    return config;
}

TrainingResult train(TrainingConfig config, bool cuda_graph) {
    config.cuda_graph = cuda_graph;
    return run_training(config, nullptr);
}

// A replay runs the captured kernels with the same arguments on the same values, so the
// losses are expected bit for bit; the tolerance only admits cuBLAS choosing another
// GEMM algorithm with the user workspace a graph run sets (cublasSetWorkspace).
double graph_tolerance(const std::string& precision) {
    if (precision == "fp64") {
        return 1e-12;
    }
    if (precision == "fp32") {
        return 1e-6;
    }
    return 1e-3;  // tf32, bf16: one flipped rounding of a reordered sum
}

void expect_same_losses(const TrainingResult& graph, const TrainingResult& eager,
                        double relative_tolerance, const std::string& what) {
    ASSERT_EQ(graph.steps.size(), eager.steps.size()) << what;
    for (std::size_t i = 0; i < eager.steps.size(); ++i) {
        const double reference = eager.steps[i].loss;
        EXPECT_NEAR(graph.steps[i].loss, reference, relative_tolerance * std::abs(reference))
            << what << " step " << i;
        EXPECT_FALSE(graph.steps[i].skipped) << what << " step " << i;
        EXPECT_GT(graph.steps[i].duration_ns, 0) << what << " step " << i;
    }
}

void expect_graph_recorded(const TrainingResult& result, std::int64_t replays,
                           const std::string& what) {
    EXPECT_EQ(result.environment.at("cuda_graph"), "on") << what;
    EXPECT_EQ(result.environment.at("cuda_graph_captured"), "true") << what;
    EXPECT_GT(std::stoll(result.environment.at("cuda_graph_nodes")), 0) << what;
    EXPECT_EQ(std::stoll(result.environment.at("cuda_graph_replays")), replays) << what;
    EXPECT_GT(std::stod(result.environment.at("cuda_graph_capture_ms")), 0.0) << what;
    EXPECT_GT(result.extra_metrics.at("graph_arena_bytes"), 0.0) << what;
}

struct GraphCase {
    const char* model;
    const char* precision;
    const char* optimizer;
};

void PrintTo(const GraphCase& c, std::ostream* out) {
    *out << c.model << "/" << c.precision << "/" << c.optimizer;
}

class CudaGraphTraining : public testing::TestWithParam<GraphCase> {};

TEST_P(CudaGraphTraining, TenStepsWithAGraphGiveTheEagerLosses) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const GraphCase c = GetParam();
    const std::string what = std::string(c.model) + " " + c.precision + " " + c.optimizer;
    const TrainingConfig config = ten_cuda_steps(c.model, c.precision, c.optimizer);
    const TrainingResult eager = train(config, false);
    const TrainingResult graph = train(config, true);
    expect_same_losses(graph, eager, graph_tolerance(c.precision), what);
    // Steps 0 and 1 eager, step 2 captured and run, steps 3..9 replayed.
    expect_graph_recorded(graph, 7, what);
    EXPECT_EQ(eager.environment.at("cuda_graph"), "off") << what;
    ASSERT_EQ(graph.evaluations.size(), eager.evaluations.size()) << what;
    for (std::size_t i = 0; i < eager.evaluations.size(); ++i) {
        EXPECT_NEAR(graph.evaluations[i].test_loss, eager.evaluations[i].test_loss,
                    graph_tolerance(c.precision) * std::abs(eager.evaluations[i].test_loss))
            << what;
    }
}

INSTANTIATE_TEST_SUITE_P(
    ModelsPrecisionsOptimizers, CudaGraphTraining,
    testing::Values(GraphCase{"seed-cnn", "fp32", "adam"}, GraphCase{"seed-cnn", "fp32", "sgd"},
                    GraphCase{"seed-cnn", "fp64", "adam"}, GraphCase{"seed-cnn", "tf32", "adam"},
                    GraphCase{"seed-cnn", "bf16", "adam"}, GraphCase{"resnet", "fp32", "adam"},
                    GraphCase{"resnet", "fp32", "sgd"}, GraphCase{"resnet", "fp64", "sgd"}));

struct GraphMemoryCase {
    const char* allocator;
    const char* host_memory;
    const char* transfer;
    const char* placement;
    const char* activations;
};

void PrintTo(const GraphMemoryCase& c, std::ostream* out) {
    *out << c.allocator << "/" << c.host_memory << "/" << c.transfer << "/" << c.placement << "/"
         << c.activations;
}

class CudaGraphMemory : public testing::TestWithParam<GraphMemoryCase> {};

// Evaluation every three steps runs between replays on the run's own allocator: it must
// neither disturb the graph's arena nor be disturbed by it.
TEST_P(CudaGraphMemory, EveryInputPathAndAllocatorReplaysTheEagerLosses) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const GraphMemoryCase c = GetParam();
    std::ostringstream name;
    PrintTo(c, &name);
    TrainingConfig config = ten_cuda_steps("resnet", "fp32", "adam");
    config.allocator = parse_allocator(c.allocator);
    config.host_memory = parse_host_memory(c.host_memory);
    config.transfer = parse_transfer(c.transfer);
    config.placement = parse_placement(c.placement);
    config.activations = parse_activations(c.activations);
    config.eval_every_steps = 3;
    const TrainingResult eager = train(config, false);
    const TrainingResult graph = train(config, true);
    expect_same_losses(graph, eager, graph_tolerance("fp32"), name.str());
    expect_graph_recorded(graph, 7, name.str());
    ASSERT_EQ(graph.evaluations.size(), eager.evaluations.size());
    for (std::size_t i = 0; i < eager.evaluations.size(); ++i) {
        EXPECT_NEAR(graph.evaluations[i].test_loss, eager.evaluations[i].test_loss,
                    1e-6 * std::abs(eager.evaluations[i].test_loss))
            << name.str() << " evaluation " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Strategies, CudaGraphMemory,
    testing::Values(GraphMemoryCase{"pool", "pageable", "sync", "stream", "keep"},
                    GraphMemoryCase{"async", "pageable", "sync", "stream", "keep"},
                    GraphMemoryCase{"device", "pinned", "sync", "stream", "keep"},
                    GraphMemoryCase{"pool", "pinned", "overlap", "stream", "keep"},
                    GraphMemoryCase{"pool", "pinned", "sync", "resident", "keep"},
                    GraphMemoryCase{"async", "pageable", "sync", "resident", "recompute"}));

TEST(CudaGraphOption, ARunTooShortToCaptureStaysEager) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    TrainingConfig config = ten_cuda_steps("seed-cnn", "fp32", "adam");
    config.steps = 2;
    const TrainingResult eager = train(config, false);
    const TrainingResult graph = train(config, true);
    expect_same_losses(graph, eager, graph_tolerance("fp32"), "two steps");
    EXPECT_EQ(graph.environment.at("cuda_graph"), "on");
    EXPECT_EQ(graph.environment.at("cuda_graph_captured"), "false");
    EXPECT_EQ(graph.environment.at("cuda_graph_replays"), "0");
}

TEST(CudaGraphOption, ManagedMemoryIsAConfigErrorNamingCudaGraph) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    TrainingConfig managed = ten_cuda_steps("seed-cnn", "fp32", "adam");
    managed.allocator = Allocator::managed;
    try {
        train(managed, true);
        FAIL() << "cuda_graph accepted with allocator managed";
    } catch (const ConfigError& error) {
        EXPECT_EQ(std::string(error.what()).rfind("cuda_graph:", 0), 0u) << error.what();
    }
}

// fp16: the overflow check and the skipped update run inside the graph; a new loss scale
// (a skip backs it off, a growth doubles it) is captured anew. A first scale far too
// large forces skips after the first capture, a short growth interval forces growths;
// skips, scales and losses must match the eager run's.
TEST(CudaGraphOption, Fp16SkipsOverflowedStepsInTheGraphAndRecapturesOnANewScale) {
    TS_SKIP_WITHOUT_CUDA_DEVICE();
    const std::pair<const char*, const char*> cases[] = {
        {"seed-cnn", "adam"}, {"seed-cnn", "sgd"}, {"resnet", "adam"}};
    for (const auto& [model, optimizer] : cases) {
        TrainingConfig config = ten_cuda_steps(model, "fp16", optimizer);
        config.steps = 16;
        config.initial_loss_scale = 1 << 21;
        config.loss_scale_growth_interval = 3;
        const TrainingResult eager = train(config, false);
        const TrainingResult graph = train(config, true);
        ASSERT_EQ(graph.steps.size(), eager.steps.size()) << model << " " << optimizer;
        std::int64_t late_skips = 0;
        std::int64_t expected_captures = 0;
        for (std::size_t i = 0; i < eager.steps.size(); ++i) {
            const StepRecord& step = eager.steps[i];
            EXPECT_EQ(graph.steps[i].skipped, step.skipped)
                << model << " " << optimizer << " step " << i;
            EXPECT_EQ(graph.steps[i].loss_scale, step.loss_scale)
                << model << " " << optimizer << " step " << i;
            EXPECT_NEAR(graph.steps[i].loss, step.loss, 1e-3 * std::abs(step.loss))
                << model << " " << optimizer << " step " << i;
            late_skips += (i >= 3 && step.skipped) ? 1 : 0;
            if (i == 2 || (i > 2 && (step.loss_scale != eager.steps[i - 1].loss_scale ||
                                     eager.steps[i - 1].skipped))) {
                ++expected_captures;
            }
        }
        EXPECT_GT(late_skips, 0) << model << " " << optimizer;
        EXPECT_EQ(graph.environment.at("cuda_graph_captures"), std::to_string(expected_captures))
            << model << " " << optimizer;
        EXPECT_EQ(std::stoll(graph.environment.at("cuda_graph_replays")),
                  static_cast<std::int64_t>(eager.steps.size()) - 2 - expected_captures)
            << model << " " << optimizer;
    }
}

}  // namespace
}  // namespace trainscope::workloads
