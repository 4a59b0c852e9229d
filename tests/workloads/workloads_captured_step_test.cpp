// The engine's side of cuda_graph=true, run on the CPU: a backend that behaves like a
// captured CUDA graph (GraphSimulatingBackend) records the step's operations instead of
// running them, with raw addresses (non-owning views) and frozen arguments, and runs the
// recording again at each replay. Training through it must give the plain CPU run's
// losses bit for bit: that holds only if every address the recording uses stays valid
// and untouched between replays (StepArena, the fixed input batch, evaluation kept off
// the arena), if the input is refreshed in place, if the loss is read after the step,
// and if the captured steps repeat the warm-up step's allocations (the sealed arena
// throws otherwise).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/backends/cpu/CpuBackend.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::workloads {
namespace {

// Storage for views: frees nothing.
class NoRelease final : public RawAllocator {
  public:
    void* allocate(std::size_t, TensorClass) override {
        throw std::logic_error("views allocate nothing");
    }
    void deallocate(void*, std::size_t, TensorClass) noexcept override {}
    std::string name() const override { return "views"; }
};

class GraphSimulatingBackend final : public Backend {
  public:
    explicit GraphSimulatingBackend(int threads) : cpu_(threads) {}

    std::string name() const override { return "graph-sim"; }
    RawAllocator& raw_allocator() override { return cpu_.raw_allocator(); }
    std::map<std::string, std::string> environment() const override {
        auto env = cpu_.environment();
        env["recorded_ops"] = std::to_string(recording_.size());
        env["replays"] = std::to_string(replays_);
        env["captures"] = std::to_string(captures_);
        return env;
    }
    void synchronize() override { cpu_.synchronize(); }
    void set_math_mode(MathMode mode) override { cpu_.set_math_mode(mode); }
    StepTimer& start_step_timer() override { return cpu_.start_step_timer(); }
    bool emulates(Precision precision) const override { return cpu_.emulates(precision); }
    DType storage_dtype(Precision precision) const override {
        return cpu_.storage_dtype(precision);
    }

    // Never part of a captured step.
    void do_copy_from_host(const void* host, Tensor& destination) override {
        not_captured("copy_from_host");
        cpu_.copy_from_host(host, destination);
    }
    void do_copy_to_host(const Tensor& source, void* host) override {
        not_captured("copy_to_host");
        cpu_.copy_to_host(source, host);
    }
    void do_gather_rows(const Tensor& source, const Tensor& indices, Tensor& destination) override {
        not_captured("gather_rows");
        cpu_.gather_rows(source, indices, destination);
    }
    void do_softmax_cross_entropy(const Tensor& logits, const Tensor& labels, double loss_scale,
                                  Tensor& dlogits, CrossEntropyTotals& totals) override {
        not_captured("softmax_cross_entropy");
        cpu_.softmax_cross_entropy(logits, labels, loss_scale, dlogits, totals);
    }
    CrossEntropyTotals take_loss_totals() override {
        not_captured("take_loss_totals");
        return cpu_.take_loss_totals();
    }

    // Recorded while capturing, run at once otherwise.
    void do_copy(const Tensor& source, Tensor& destination) override {
        queue([this, s = view(source), d = view(destination)]() mutable { cpu_.copy(s, d); });
    }
    void do_convert(const Tensor& source, Tensor& destination) override {
        queue([this, s = view(source), d = view(destination)]() mutable { cpu_.convert(s, d); });
    }
    void do_fill(Tensor& tensor, double value) override {
        queue([this, t = view(tensor), value]() mutable { cpu_.fill(t, value); });
    }
    void do_conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& bias, Tensor& y,
                           const Conv2dGeometry& g) override {
        queue([this, x = view(x), w = view(w), b = view(bias), y = view(y), g]() mutable {
            cpu_.conv2d_forward(x, w, b, y, g);
        });
    }
    void do_conv2d_backward_data(const Tensor& dy, const Tensor& w, Tensor& dx,
                                 const Conv2dGeometry& g) override {
        queue([this, dy = view(dy), w = view(w), dx = view(dx), g]() mutable {
            cpu_.conv2d_backward_data(dy, w, dx, g);
        });
    }
    void do_conv2d_backward_filter(const Tensor& x, const Tensor& dy, Tensor& dw, Tensor& dbias,
                                   const Conv2dGeometry& g) override {
        queue([this, x = view(x), dy = view(dy), dw = view(dw), db = view(dbias), g]() mutable {
            cpu_.conv2d_backward_filter(x, dy, dw, db, g);
        });
    }
    void do_gemm(bool ta, bool tb, double alpha, const Tensor& a, const Tensor& b, double beta,
                 Tensor& c) override {
        queue([this, ta, tb, alpha, a = view(a), b = view(b), beta, c = view(c)]() mutable {
            cpu_.gemm(ta, tb, alpha, a, b, beta, c);
        });
    }
    void do_add_bias(Tensor& y, const Tensor& bias) override {
        queue([this, y = view(y), b = view(bias)]() mutable { cpu_.add_bias(y, b); });
    }
    void do_bias_backward(const Tensor& dy, Tensor& dbias) override {
        queue([this, dy = view(dy), db = view(dbias)]() mutable { cpu_.bias_backward(dy, db); });
    }
    void do_relu_forward(const Tensor& x, Tensor& y) override {
        queue([this, x = view(x), y = view(y)]() mutable { cpu_.relu_forward(x, y); });
    }
    void do_relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx) override {
        queue([this, y = view(y), dy = view(dy), dx = view(dx)]() mutable {
            cpu_.relu_backward(y, dy, dx);
        });
    }
    void do_max_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& g) override {
        queue([this, x = view(x), y = view(y), g]() mutable { cpu_.max_pool_forward(x, y, g); });
    }
    void do_max_pool_backward(const Tensor& x, const Tensor& y, const Tensor& dy, Tensor& dx,
                              const Pool2dGeometry& g) override {
        queue([this, x = view(x), y = view(y), dy = view(dy), dx = view(dx), g]() mutable {
            cpu_.max_pool_backward(x, y, dy, dx, g);
        });
    }
    void do_avg_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& g) override {
        queue([this, x = view(x), y = view(y), g]() mutable { cpu_.avg_pool_forward(x, y, g); });
    }
    void do_avg_pool_backward(const Tensor& dy, Tensor& dx, const Pool2dGeometry& g) override {
        queue([this, dy = view(dy), dx = view(dx), g]() mutable {
            cpu_.avg_pool_backward(dy, dx, g);
        });
    }
    void do_global_avg_pool_forward(const Tensor& x, Tensor& y) override {
        queue([this, x = view(x), y = view(y)]() mutable { cpu_.global_avg_pool_forward(x, y); });
    }
    void do_global_avg_pool_backward(const Tensor& dy, Tensor& dx) override {
        queue([this, dy = view(dy), dx = view(dx)]() mutable {
            cpu_.global_avg_pool_backward(dy, dx);
        });
    }
    void do_batch_norm_forward_training(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                        Tensor& y, Tensor& running_mean, Tensor& running_var,
                                        Tensor& saved_mean, Tensor& saved_inv_std,
                                        const BatchNormSettings& settings,
                                        bool update_running) override {
        queue([this, x = view(x), gamma = view(gamma), beta = view(beta), y = view(y),
               rm = view(running_mean), rv = view(running_var), sm = view(saved_mean),
               si = view(saved_inv_std), settings, update_running]() mutable {
            cpu_.batch_norm_forward_training(x, gamma, beta, y, rm, rv, sm, si, settings,
                                             update_running);
        });
    }
    void do_batch_norm_forward_inference(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                         const Tensor& running_mean, const Tensor& running_var,
                                         Tensor& y, const BatchNormSettings& settings) override {
        queue([this, x = view(x), gamma = view(gamma), beta = view(beta), rm = view(running_mean),
               rv = view(running_var), y = view(y), settings]() mutable {
            cpu_.batch_norm_forward_inference(x, gamma, beta, rm, rv, y, settings);
        });
    }
    void do_batch_norm_backward(const Tensor& x, const Tensor& dy, const Tensor& gamma,
                                const Tensor& saved_mean, const Tensor& saved_inv_std, Tensor& dx,
                                Tensor& dgamma, Tensor& dbeta,
                                const BatchNormSettings& settings) override {
        queue([this, x = view(x), dy = view(dy), gamma = view(gamma), sm = view(saved_mean),
               si = view(saved_inv_std), dx = view(dx), dg = view(dgamma), db = view(dbeta),
               settings]() mutable {
            cpu_.batch_norm_backward(x, dy, gamma, sm, si, dx, dg, db, settings);
        });
    }
    void do_add(const Tensor& a, const Tensor& b, Tensor& y) override {
        queue([this, a = view(a), b = view(b), y = view(y)]() mutable { cpu_.add(a, b, y); });
    }
    void do_softmax_cross_entropy_deferred(const Tensor& logits, const Tensor& labels,
                                           double loss_scale, Tensor& dlogits) override {
        queue([this, z = view(logits), l = view(labels), loss_scale, d = view(dlogits)]() mutable {
            cpu_.softmax_cross_entropy_deferred(z, l, loss_scale, d);
        });
    }
    // Frozen arguments, as in a graph's kernel nodes (SGD's do not change between steps;
    // the loss scale in grad_factor changes only with a new capture).
    void do_sgd_update(Tensor& p, const Tensor& g, Tensor& v, const SgdSettings& settings,
                       double grad_factor, const Tensor& skip) override {
        queue([this, p = view(p), g = view(g), v = view(v), settings, grad_factor,
               skip = view(skip)]() mutable {
            cpu_.sgd_update(p, g, v, settings, grad_factor, skip);
        });
    }
    // Adam's bias correction is refreshed per launch (the CUDA backend's device block):
    // replay k after a capture runs the captured step count + k.
    void do_adam_update(Tensor& p, const Tensor& g, Tensor& m, Tensor& v,
                        const AdamSettings& settings, double grad_factor,
                        const Tensor& skip) override {
        queue([this, p = view(p), g = view(g), m = view(m), v = view(v), settings, grad_factor,
               skip = view(skip), recorded = capturing_]() mutable {
            AdamSettings now = settings;
            if (recorded) {
                now.step += replays_since_capture_;
            }
            cpu_.adam_update(p, g, m, v, now, grad_factor, skip);
        });
    }
    void do_flag_non_finite(const Tensor& tensor, Tensor& overflow) override {
        queue(
            [this, t = view(tensor), o = view(overflow)]() mutable { cpu_.flag_non_finite(t, o); });
    }
    void do_round_storage(Tensor& tensor, StorageRounding rounding) override {
        queue([this, t = view(tensor), rounding]() mutable { cpu_.round_storage(t, rounding); });
    }

    // A new capture replaces the recording (fp16: the loss scale changed).
    void begin_step_capture() override {
        if (capturing_) {
            throw std::logic_error("graph-sim: begin_step_capture while capturing");
        }
        recording_.clear();
        replays_since_capture_ = 0;
        capturing_ = true;
    }
    void end_step_capture() override {
        capturing_ = false;
        ++captures_;
        launch();
    }
    void replay_step() override {
        if (recording_.empty()) {
            throw std::logic_error("graph-sim: replay before a capture");
        }
        ++replays_since_capture_;
        ++replays_;
        launch();
    }
    void abandon_step_capture() noexcept override {
        capturing_ = false;
        recording_.clear();
    }

    std::int64_t replays() const { return replays_; }

  private:
    void not_captured(const char* op) const {
        if (capturing_) {
            throw std::logic_error(std::string("graph-sim: ") + op + " inside a captured step");
        }
    }
    // A handle to the same memory that keeps nothing alive, as a graph's kernel nodes.
    Tensor view(const Tensor& t) {
        if (!capturing_ || t.empty()) {
            return t;
        }
        return Tensor(std::make_shared<TensorStorage>(views_, t.raw(), t.bytes(), t.tensor_class()),
                      t.shape(), t.dtype());
    }
    void queue(std::function<void()> op) {
        if (capturing_) {
            recording_.push_back(std::move(op));
        } else {
            op();
        }
    }
    void launch() {
        for (auto& op : recording_) {
            op();
        }
    }

    CpuBackend cpu_;
    NoRelease no_release_;
    TensorAllocator views_{no_release_};
    std::vector<std::function<void()>> recording_;
    bool capturing_ = false;
    std::int64_t replays_ = 0;
    std::int64_t captures_ = 0;
    std::int64_t replays_since_capture_ = 0;
};

void register_graph_simulation() {
    static const bool registered = [] {
        register_backend("graph-sim", [](const BackendOptions& options) {
            return std::make_unique<GraphSimulatingBackend>(options.threads);
        });
        return true;
    }();
    (void)registered;
}

TrainingConfig small_run(const std::string& model, const std::string& optimizer) {
    TrainingConfig config;
    config.model = model;
    config.optimizer = parse_optimizer(optimizer);
    config.dataset = "synthetic";
    config.input_shape = model == "resnet" ? "3x12x12" : "1x28x28";
    config.classes = 10;
    config.batch = 8;
    config.steps = 6;
    config.warmup_steps = 0;
    config.threads = 1;
    config.seed = 11;
    config.eval_every_steps = 4;  // an evaluation between replays
    if (model == "resnet") {
        config.model_params = {{"depth", "8"}, {"width", "4"}};
    }
    return config;
}

void expect_bit_identical(const TrainingResult& graph, const TrainingResult& eager) {
    ASSERT_EQ(graph.steps.size(), eager.steps.size());
    for (std::size_t i = 0; i < eager.steps.size(); ++i) {
        EXPECT_EQ(std::memcmp(&graph.steps[i].loss, &eager.steps[i].loss, sizeof(double)), 0)
            << "step " << i << ": " << graph.steps[i].loss << " vs " << eager.steps[i].loss;
    }
    ASSERT_EQ(graph.evaluations.size(), eager.evaluations.size());
    for (std::size_t i = 0; i < eager.evaluations.size(); ++i) {
        EXPECT_EQ(graph.evaluations[i].test_loss, eager.evaluations[i].test_loss) << i;
        EXPECT_EQ(graph.evaluations[i].test_accuracy, eager.evaluations[i].test_accuracy) << i;
    }
}

struct SimulatedCase {
    const char* model;
    const char* optimizer;
    const char* precision;
    const char* allocator;
    const char* activations;
};

void PrintTo(const SimulatedCase& c, std::ostream* out) {
    *out << c.model << "/" << c.optimizer << "/" << c.precision << "/" << c.allocator << "/"
         << c.activations;
}

class WorkloadsCapturedStep : public ::testing::TestWithParam<SimulatedCase> {};

TEST_P(WorkloadsCapturedStep, ReplayingTheRecordedStepTrainsLikeTheEagerCpuRun) {
    register_graph_simulation();
    const SimulatedCase c = GetParam();
    TrainingConfig config = small_run(c.model, c.optimizer);
    config.precision = parse_precision(c.precision);
    config.allocator = parse_allocator(c.allocator);
    config.activations = parse_activations(c.activations);
    const TrainingResult eager = run_training(config, nullptr);
    config.backend = "graph-sim";
    config.cuda_graph = true;
    const TrainingResult graph = run_training(config, nullptr);
    expect_bit_identical(graph, eager);
    // Steps 0 and 1 eager, step 2 captured, steps 3..5 replayed.
    EXPECT_EQ(graph.environment.at("replays"), "3");
    EXPECT_NE(graph.environment.at("recorded_ops"), "0");
    EXPECT_GT(graph.extra_metrics.at("graph_arena_bytes"), 0.0);
}

INSTANTIATE_TEST_SUITE_P(
    ModelsAndOptions, WorkloadsCapturedStep,
    ::testing::Values(SimulatedCase{"seed-cnn", "adam", "fp32", "device", "keep"},
                      SimulatedCase{"seed-cnn", "sgd", "fp64", "pool", "keep"},
                      SimulatedCase{"lenet5", "adam", "bf16", "pool", "keep"},
                      SimulatedCase{"resnet", "adam", "fp32", "pool", "recompute"},
                      SimulatedCase{"resnet", "sgd", "tf32", "device", "keep"}));

void expect_same_loss_scaling(const TrainingResult& graph, const TrainingResult& eager) {
    ASSERT_EQ(graph.steps.size(), eager.steps.size());
    for (std::size_t i = 0; i < eager.steps.size(); ++i) {
        EXPECT_EQ(graph.steps[i].skipped, eager.steps[i].skipped) << "step " << i;
        EXPECT_EQ(graph.steps[i].loss_scale, eager.steps[i].loss_scale) << "step " << i;
    }
}

// fp16 with graphs: the overflow check and the skipped update run inside the recorded
// step; a step whose loss scale differs from the recording's (after a skip backs it off,
// or a growth doubles it) is recorded anew. A first scale far too large forces skips
// after the first capture, and a short growth interval forces growths.
class WorkloadsCapturedFp16 : public ::testing::TestWithParam<SimulatedCase> {};

TEST_P(WorkloadsCapturedFp16, SkipsOverflowedStepsInTheGraphAndRecapturesOnANewScale) {
    register_graph_simulation();
    const SimulatedCase c = GetParam();
    TrainingConfig config = small_run(c.model, c.optimizer);
    config.precision = Precision::fp16;
    config.allocator = parse_allocator(c.allocator);
    config.activations = parse_activations(c.activations);
    config.steps = 16;
    config.initial_loss_scale = 1 << 21;
    config.loss_scale_growth_interval = 3;
    const TrainingResult eager = run_training(config, nullptr);
    config.backend = "graph-sim";
    config.cuda_graph = true;
    const TrainingResult graph = run_training(config, nullptr);
    expect_bit_identical(graph, eager);
    expect_same_loss_scaling(graph, eager);

    // The path under test was taken: skips after the first capture, and growths.
    std::int64_t late_skips = 0;
    std::int64_t growths = 0;
    std::int64_t expected_captures = 0;
    for (std::size_t i = 0; i < eager.steps.size(); ++i) {
        const StepRecord& step = eager.steps[i];
        late_skips += (i >= 3 && step.skipped) ? 1 : 0;
        growths += (i > 0 && step.loss_scale > eager.steps[i - 1].loss_scale) ? 1 : 0;
        // Step 2 is the first capture; later a new scale or a skip before recaptures.
        if (i == 2 || (i > 2 && (step.loss_scale != eager.steps[i - 1].loss_scale ||
                                 eager.steps[i - 1].skipped))) {
            ++expected_captures;
        }
    }
    EXPECT_GT(late_skips, 0);
    EXPECT_GT(growths, 0);
    EXPECT_EQ(graph.environment.at("captures"), std::to_string(expected_captures));
    EXPECT_EQ(graph.extra_metrics.at("graph_captures"), static_cast<double>(expected_captures));
    EXPECT_EQ(
        graph.environment.at("replays"),
        std::to_string(static_cast<std::int64_t>(eager.steps.size()) - 2 - expected_captures));
    EXPECT_GT(std::stoll(graph.environment.at("replays")), 0);
}

INSTANTIATE_TEST_SUITE_P(
    ModelsAndOptimizers, WorkloadsCapturedFp16,
    ::testing::Values(SimulatedCase{"seed-cnn", "adam", "fp16", "device", "keep"},
                      SimulatedCase{"seed-cnn", "sgd", "fp16", "pool", "keep"},
                      SimulatedCase{"resnet", "adam", "fp16", "pool", "recompute"}));

// With graphs the step's tensors live in the arena, beside the run's other tensors: the
// run's peak is the moment both together were largest (the ledger's), not the sum of two
// peaks reached at different times.
TEST(WorkloadsCapturedStepFlow, ThePeakIsOfAllTensorsAtOnce) {
    register_graph_simulation();
    TrainingConfig config = small_run("seed-cnn", "adam");
    config.backend = "graph-sim";
    config.cuda_graph = true;
    const TrainingResult graph = run_training(config, nullptr);
    std::int64_t breakdown = 0;
    for (const std::int64_t bytes : graph.peak_bytes_by_class)
        breakdown += bytes;
    EXPECT_GT(breakdown, 0);
    EXPECT_EQ(graph.peak_tensor_bytes, breakdown);
}

TEST(WorkloadsCapturedStepFlow, ARunTooShortToCaptureNeverReplays) {
    register_graph_simulation();
    TrainingConfig config = small_run("seed-cnn", "adam");
    config.steps = 2;
    const TrainingResult eager = run_training(config, nullptr);
    config.backend = "graph-sim";
    config.cuda_graph = true;
    const TrainingResult graph = run_training(config, nullptr);
    expect_bit_identical(graph, eager);
    EXPECT_EQ(graph.environment.at("recorded_ops"), "0");
}

}  // namespace
}  // namespace trainscope::workloads
