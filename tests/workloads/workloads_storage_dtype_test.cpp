// The engine's dtype plumbing for a backend that stores fp16/bf16 natively: which tensors
// are 16-bit, which stay f32 masters, and where the engine converts. A recording backend
// (every operation a no-op that notes the dtypes it was handed) answers storage_dtype with
// f16/bf16, so a run through run_training shows what the engine allocates and calls.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/backends/cpu/CpuBackend.hpp"
#include "workloads/backends/cpu/HostRawAllocator.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::workloads {
namespace {

// One call: operation name and the dtypes of its tensor arguments in declaration order
// ("-" for an empty tensor).
struct Call {
    std::string op;
    std::vector<std::string> dtypes;
};

std::string dtype_of(const Tensor& t) {
    return t.empty() ? "-" : dtype_name(t.dtype());
}

class RecordingBackend final : public Backend {
  public:
    explicit RecordingBackend(std::vector<Call>& calls) : calls_(calls) {}

    std::string name() const override { return "recording"; }
    RawAllocator& raw_allocator() override { return allocator_; }
    std::map<std::string, std::string> environment() const override {
        return {{"backend", "recording"}};
    }
    void synchronize() override {}
    void set_math_mode(MathMode) override {}
    StepTimer& start_step_timer() override {
        timer_.start();
        return timer_;
    }
    bool emulates(Precision) const override { return false; }
    DType storage_dtype(Precision precision) const override {
        switch (precision) {
            case Precision::fp16:
                return DType::f16;
            case Precision::bf16:
                return DType::bf16;
            case Precision::fp64:
                return DType::f64;
            case Precision::fp32:
            case Precision::tf32:
                break;
        }
        return DType::f32;
    }

    void do_copy_from_host(const void*, Tensor& destination) override {
        note("copy_from_host", {&destination});
    }
    void do_copy_to_host(const Tensor& source, void*) override { note("copy_to_host", {&source}); }
    void do_copy(const Tensor& source, Tensor& destination) override {
        note("copy", {&source, &destination});
    }
    void do_fill(Tensor& tensor, double) override { note("fill", {&tensor}); }
    void do_convert(const Tensor& source, Tensor& destination) override {
        note("convert", {&source, &destination});
    }
    void do_gather_rows(const Tensor& source, const Tensor& indices, Tensor& destination) override {
        note("gather_rows", {&source, &indices, &destination});
    }
    void do_conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& bias, Tensor& y,
                           const Conv2dGeometry&) override {
        note("conv2d_forward", {&x, &w, &bias, &y});
    }
    void do_conv2d_backward_data(const Tensor& dy, const Tensor& w, Tensor& dx,
                                 const Conv2dGeometry&) override {
        note("conv2d_backward_data", {&dy, &w, &dx});
    }
    void do_conv2d_backward_filter(const Tensor& x, const Tensor& dy, Tensor& dw, Tensor& dbias,
                                   const Conv2dGeometry&) override {
        note("conv2d_backward_filter", {&x, &dy, &dw, &dbias});
    }
    void do_gemm(bool, bool, double, const Tensor& a, const Tensor& b, double, Tensor& c) override {
        note("gemm", {&a, &b, &c});
    }
    void do_add_bias(Tensor& y, const Tensor& bias) override { note("add_bias", {&y, &bias}); }
    void do_bias_backward(const Tensor& dy, Tensor& dbias) override {
        note("bias_backward", {&dy, &dbias});
    }
    void do_relu_forward(const Tensor& x, Tensor& y) override { note("relu_forward", {&x, &y}); }
    void do_relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx) override {
        note("relu_backward", {&y, &dy, &dx});
    }
    void do_max_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry&) override {
        note("max_pool_forward", {&x, &y});
    }
    void do_max_pool_backward(const Tensor& x, const Tensor& y, const Tensor& dy, Tensor& dx,
                              const Pool2dGeometry&) override {
        note("max_pool_backward", {&x, &y, &dy, &dx});
    }
    void do_avg_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry&) override {
        note("avg_pool_forward", {&x, &y});
    }
    void do_avg_pool_backward(const Tensor& dy, Tensor& dx, const Pool2dGeometry&) override {
        note("avg_pool_backward", {&dy, &dx});
    }
    void do_global_avg_pool_forward(const Tensor& x, Tensor& y) override {
        note("global_avg_pool_forward", {&x, &y});
    }
    void do_global_avg_pool_backward(const Tensor& dy, Tensor& dx) override {
        note("global_avg_pool_backward", {&dy, &dx});
    }
    void do_batch_norm_forward_training(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                        Tensor& y, Tensor& running_mean, Tensor& running_var,
                                        Tensor& saved_mean, Tensor& saved_inv_std,
                                        const BatchNormSettings&, bool) override {
        note("batch_norm_forward_training",
             {&x, &gamma, &beta, &y, &running_mean, &running_var, &saved_mean, &saved_inv_std});
    }
    void do_batch_norm_forward_inference(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                         const Tensor& running_mean, const Tensor& running_var,
                                         Tensor& y, const BatchNormSettings&) override {
        note("batch_norm_forward_inference", {&x, &gamma, &beta, &running_mean, &running_var, &y});
    }
    void do_batch_norm_backward(const Tensor& x, const Tensor& dy, const Tensor& gamma,
                                const Tensor& saved_mean, const Tensor& saved_inv_std, Tensor& dx,
                                Tensor& dgamma, Tensor& dbeta, const BatchNormSettings&) override {
        note("batch_norm_backward",
             {&x, &dy, &gamma, &saved_mean, &saved_inv_std, &dx, &dgamma, &dbeta});
    }
    void do_add(const Tensor& a, const Tensor& b, Tensor& y) override { note("add", {&a, &b, &y}); }
    void do_softmax_cross_entropy(const Tensor& logits, const Tensor& labels, double,
                                  Tensor& dlogits, CrossEntropyTotals& totals) override {
        note("softmax_cross_entropy", {&logits, &labels, &dlogits});
        totals.loss_sum += 1.0;
        totals.count += logits.shape()[0];
    }
    void do_softmax_cross_entropy_deferred(const Tensor& logits, const Tensor& labels,
                                           double loss_scale, Tensor& dlogits) override {
        softmax_cross_entropy(logits, labels, loss_scale, dlogits, deferred_);
    }
    CrossEntropyTotals take_loss_totals() override { return std::exchange(deferred_, {}); }
    // The skip flag, when given, is noted last.
    void do_sgd_update(Tensor& parameter, const Tensor& gradient, Tensor& velocity,
                       const SgdSettings&, double, const Tensor& skip) override {
        note("sgd_update", {&parameter, &gradient, &velocity, skip.empty() ? nullptr : &skip});
    }
    void do_adam_update(Tensor& parameter, const Tensor& gradient, Tensor& first_moment,
                        Tensor& second_moment, const AdamSettings&, double,
                        const Tensor& skip) override {
        note("adam_update", {&parameter, &gradient, &first_moment, &second_moment,
                             skip.empty() ? nullptr : &skip});
    }
    void do_round_storage(Tensor& tensor, StorageRounding) override {
        note("round_storage", {&tensor});
    }
    void do_flag_non_finite(const Tensor& tensor, Tensor& overflow) override {
        note("flag_non_finite", {&tensor, &overflow});
    }

  private:
    void note(const char* op, std::initializer_list<const Tensor*> tensors) {
        Call call{op, {}};
        for (const Tensor* t : tensors) {
            if (t == nullptr) {
                continue;
            }
            call.dtypes.push_back(dtype_of(*t));
        }
        calls_.push_back(std::move(call));
    }

    std::vector<Call>& calls_;
    HostRawAllocator allocator_;
    CrossEntropyTotals deferred_;
    SteadyClockStepTimer timer_;
};

// Calls of the last run, shared with the factory the registry keeps.
std::vector<Call>& recorded_calls() {
    static std::vector<Call> calls;
    return calls;
}

std::vector<Call> run_recorded(const std::string& model, const std::string& precision,
                               const std::string& optimizer, std::int64_t steps,
                               const std::string& resnet_depth = "8") {
    static const bool registered = [] {
        register_backend("recording-native-half", [](const BackendOptions&) {
            return std::make_unique<RecordingBackend>(recorded_calls());
        });
        return true;
    }();
    (void)registered;
    recorded_calls().clear();
    TrainingConfig config;
    config.backend = "recording-native-half";
    config.model = model;
    if (model == "resnet") {
        config.model_params = {{"depth", resnet_depth}, {"width", "4"}};
    }
    config.dataset = "synthetic";
    config.input_shape = "1x8x8";
    config.classes = 4;
    config.batch = 4;
    config.steps = steps;
    config.warmup_steps = 0;
    config.evaluate = false;
    config.precision = parse_precision(precision);
    config.optimizer = parse_optimizer(optimizer);
    const TrainingResult result = run_training(config, nullptr);
    EXPECT_FALSE(result.emulated);
    return recorded_calls();
}

std::vector<Call> calls_named(const std::vector<Call>& calls, const std::string& op) {
    std::vector<Call> named;
    for (const Call& c : calls) {
        if (c.op == op) {
            named.push_back(c);
        }
    }
    return named;
}

using Dtypes = std::vector<std::string>;

TEST(WorkloadsNativeHalfStorage, Fp16ActivationsWeightCopiesAndGradientsAre16Bit) {
    const std::vector<Call> calls = run_recorded("seed-cnn", "fp16", "adam", 2);
    // seed-cnn: conv (weight, bias) and dense (weight, bias).
    for (const Call& c : calls_named(calls, "conv2d_forward")) {
        EXPECT_EQ(c.dtypes, (Dtypes{"f16", "f16", "f16", "f16"}));
    }
    for (const Call& c : calls_named(calls, "conv2d_backward_filter")) {
        EXPECT_EQ(c.dtypes, (Dtypes{"f16", "f16", "f16", "f16"}));
    }
    const std::vector<Call> gemms = calls_named(calls, "gemm");
    ASSERT_EQ(gemms.size(), 2u * 3u);  // forward, weight gradient, input gradient
    for (const Call& c : gemms) {
        EXPECT_EQ(c.dtypes, (Dtypes{"f16", "f16", "f16"}));
    }
    for (const std::string op : {"relu_forward", "max_pool_forward", "add_bias"}) {
        const std::vector<Call> named = calls_named(calls, op);
        ASSERT_FALSE(named.empty()) << op;
        for (const Call& c : named) {
            EXPECT_EQ(c.dtypes, Dtypes(c.dtypes.size(), "f16")) << op;
        }
    }
    for (const Call& c : calls_named(calls, "softmax_cross_entropy")) {
        EXPECT_EQ(c.dtypes, (Dtypes{"f16", "i32", "f16"}));
    }
    // Masters and Adam's moments f32, gradients f16; each update guarded by the step's
    // f32 overflow flag. The four parameters are views into one flat buffer per role:
    // one update a step over the whole of it (it was one per parameter before the flat
    // buffers).
    const std::vector<Call> updates = calls_named(calls, "adam_update");
    ASSERT_EQ(updates.size(), 2u * 1u);
    for (const Call& c : updates) {
        EXPECT_EQ(c.dtypes, (Dtypes{"f32", "f16", "f32", "f32", "f32"}));
    }
    // fp16 keeps dynamic loss scaling: the overflow check reads every f16 gradient into
    // the f32 flag, which the engine reads back once per step; one check of the flat
    // gradient buffer a step.
    const std::vector<Call> checks = calls_named(calls, "flag_non_finite");
    ASSERT_EQ(checks.size(), 2u * 1u);
    for (const Call& c : checks) {
        EXPECT_EQ(c.dtypes, (Dtypes{"f16", "f32"}));
    }
    EXPECT_EQ(calls_named(calls, "copy_to_host").size(), 2u);
    // Nothing is emulated by rounding.
    EXPECT_TRUE(calls_named(calls, "round_storage").empty());
}

TEST(WorkloadsNativeHalfStorage, EngineConvertsInputsAndRefreshesWeightCopiesAfterEveryUpdate) {
    const std::vector<Call> calls = run_recorded("seed-cnn", "bf16", "sgd", 3);
    // Per step: the input batch f32 -> bf16 before the forward pass, then after the
    // update the flat masters into the flat compute copies (one conversion for all four
    // parameters; four before the flat buffers); plus the one made when the model is
    // materialized.
    std::vector<Dtypes> converts;
    for (const Call& c : calls_named(calls, "convert")) {
        converts.push_back(c.dtypes);
        EXPECT_EQ(c.dtypes, (Dtypes{"f32", "bf16"}));
    }
    EXPECT_EQ(converts.size(), 1u + 3u * (1u + 1u));
    // The order: every update is followed by the refresh, before the next step's input.
    std::vector<std::string> sequence;
    for (const Call& c : calls) {
        if (c.op == "convert" || c.op == "sgd_update" || c.op == "conv2d_forward") {
            sequence.push_back(c.op);
        }
    }
    const std::vector<std::string> one_step = {"convert", "conv2d_forward", "sgd_update",
                                               "convert"};
    std::vector<std::string> expected = {"convert"};
    for (int step = 0; step < 3; ++step) {
        expected.insert(expected.end(), one_step.begin(), one_step.end());
    }
    EXPECT_EQ(sequence, expected);
    for (const Call& c : calls_named(calls, "sgd_update")) {
        EXPECT_EQ(c.dtypes, (Dtypes{"f32", "bf16", "f32"}));
    }
    // bf16 has no loss scaling: no overflow checks, no skip flag, no read back.
    EXPECT_TRUE(calls_named(calls, "flag_non_finite").empty());
    EXPECT_TRUE(calls_named(calls, "copy_to_host").empty());
}

TEST(WorkloadsNativeHalfStorage, BatchNormKeepsF32ParametersStatisticsAndTheirGradients) {
    const std::vector<Call> calls = run_recorded("resnet", "fp16", "adam", 1);
    const std::vector<Call> forward = calls_named(calls, "batch_norm_forward_training");
    ASSERT_FALSE(forward.empty());
    for (const Call& c : forward) {
        EXPECT_EQ(c.dtypes, (Dtypes{"f16", "f32", "f32", "f16", "f32", "f32", "f32", "f32"}));
    }
    const std::vector<Call> backward = calls_named(calls, "batch_norm_backward");
    ASSERT_EQ(backward.size(), forward.size());
    for (const Call& c : backward) {
        EXPECT_EQ(c.dtypes, (Dtypes{"f16", "f16", "f32", "f32", "f32", "f16", "f32", "f32"}));
    }
    for (const Call& c : calls_named(calls, "add")) {
        EXPECT_EQ(c.dtypes, (Dtypes{"f16", "f16", "f16"}));
    }
    // Batch norm's gamma/beta update from f32 gradients; the convolutions' and the dense
    // layer's from f16 ones: one update over each flat gradient buffer (one per batch-norm
    // parameter before the flat buffers). Batch norm's parameters have no compute copy, so
    // only the others are converted after the update.
    std::size_t f32_gradients = 0;
    std::size_t f16_gradients = 0;
    for (const Call& c : calls_named(calls, "adam_update")) {
        EXPECT_EQ(c.dtypes[0], "f32");
        EXPECT_EQ(c.dtypes[2], "f32");
        EXPECT_EQ(c.dtypes[3], "f32");
        (c.dtypes[1] == "f32" ? f32_gradients : f16_gradients) += 1;
    }
    EXPECT_EQ(f32_gradients, 1u);
    EXPECT_EQ(f16_gradients, 1u);
    const std::size_t refreshed = calls_named(calls, "convert").size() - 1u;  // minus the input
    EXPECT_EQ(refreshed, 2u * f16_gradients);  // at materialize and after the one update
    // Gradients are zeroed where they live: f16 for the convolutions, f32 for batch norm.
    std::map<std::string, int> fills;
    for (const Call& c : calls_named(calls, "fill")) {
        ++fills[c.dtypes[0]];
    }
    EXPECT_GT(fills["f16"], 0);
    EXPECT_GT(fills["f32"], 0);
}

TEST(WorkloadsNativeHalfStorage, CpuBackendStoresEveryPrecisionInItsMasterDtype) {
    CpuBackend backend(1);
    EXPECT_EQ(backend.storage_dtype(Precision::fp32), DType::f32);
    EXPECT_EQ(backend.storage_dtype(Precision::tf32), DType::f32);
    EXPECT_EQ(backend.storage_dtype(Precision::fp16), DType::f32);
    EXPECT_EQ(backend.storage_dtype(Precision::bf16), DType::f32);
    EXPECT_EQ(backend.storage_dtype(Precision::fp64), DType::f64);
}

TEST(WorkloadsNativeHalfStorage, CpuConvertNarrowsAndWidensBetweenF32AndF64) {
    CpuBackend backend(1);
    TensorAllocator tensors(backend.raw_allocator());
    Tensor wide = tensors.allocate(Shape{3}, DType::f64);
    Tensor narrow = tensors.allocate(Shape{3}, DType::f32);
    const std::vector<double> values = {0.1, -2.5, 1e300};
    backend.copy_from_host(values.data(), wide);
    backend.convert(wide, narrow);
    std::vector<float> got(3);
    backend.copy_to_host(narrow, got.data());
    EXPECT_EQ(got[0], 0.1f);
    EXPECT_EQ(got[1], -2.5f);
    EXPECT_TRUE(std::isinf(got[2]));
    Tensor half = tensors.allocate(Shape{3}, DType::f16);
    EXPECT_THROW(backend.convert(narrow, half), std::logic_error);
}

// The per-step parameter work is one call per flat gradient buffer, however many
// parameters the model has: resnet-8 and resnet-14 at fp16 make the same number of
// optimizer, finite-check and cast calls per step (2 gradient buffers: f16 for the
// convolutions and the dense layer, f32 for batch norm; one flat 16-bit copy buffer).
TEST(WorkloadsNativeHalfStorage, ParameterWorkPerStepDoesNotGrowWithTheParameterCount) {
    const std::int64_t steps = 2;
    for (const std::string depth : {"8", "14"}) {
        for (const std::string optimizer : {"adam", "sgd"}) {
            const std::vector<Call> calls = run_recorded("resnet", "fp16", optimizer, steps, depth);
            const std::vector<Call> updates = calls_named(calls, optimizer + "_update");
            ASSERT_EQ(updates.size(), 2u * steps) << depth << " " << optimizer;
            EXPECT_EQ(updates[0].dtypes[1], "f16");  // the parameters with a compute copy first
            EXPECT_EQ(updates[1].dtypes[1], "f32");
            EXPECT_EQ(calls_named(calls, "flag_non_finite").size(), 2u * steps) << depth;
            // One conversion of the copies at materialize and one after every update, and
            // each step's input batch.
            EXPECT_EQ(calls_named(calls, "convert").size(), 1u + 2u * steps) << depth;
        }
    }
}

}  // namespace
}  // namespace trainscope::workloads
