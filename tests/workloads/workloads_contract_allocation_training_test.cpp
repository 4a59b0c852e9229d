// The Backend contract over real training steps: every Backend call of a steady-state
// step of seed-cnn and ResNet-8 at fp32 and fp16 on the CPU, replayed with the same
// arguments through the contract onto a backend whose hooks do nothing, allocates nothing
// on the host. (The CPU backend's own hooks and the engine's tensor handles do allocate;
// replaying isolates the contract's share.)
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "counting_new.hpp"
#include "null_backend.hpp"
#include "small_runs.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/training/TrainingSession.hpp"
#include "workloads_test_support.hpp"

namespace trainscope::workloads {
namespace {

using Call = std::function<void(Backend&)>;

// Runs every call on the backend it wraps and keeps a copy of it (arguments by value,
// tensors as handles) to replay on another backend.
class RecordingBackend final : public Backend {
  public:
    RecordingBackend(std::unique_ptr<Backend> inner, std::vector<Call>& calls)
        : inner_(std::move(inner)), calls_(&calls) {}

    std::string name() const override { return "recorded-cpu"; }
    RawAllocator& raw_allocator() override { return inner_->raw_allocator(); }
    std::map<std::string, std::string> environment() const override {
        return inner_->environment();
    }
    void synchronize() override { inner_->synchronize(); }
    void set_math_mode(MathMode mode) override { inner_->set_math_mode(mode); }
    StepTimer& start_step_timer() override { return inner_->start_step_timer(); }
    bool emulates(Precision precision) const override { return inner_->emulates(precision); }
    DType storage_dtype(Precision precision) const override {
        return inner_->storage_dtype(precision);
    }
    CrossEntropyTotals take_loss_totals() override { return inner_->take_loss_totals(); }

  private:
    void record(Call call) { calls_->push_back(std::move(call)); }

    void do_copy_from_host(const void* host, Tensor& destination) override {
        record([=](Backend& target) mutable { target.copy_from_host(host, destination); });
        inner_->copy_from_host(host, destination);
    }
    void do_copy_to_host(const Tensor& source, void* host) override {
        record([=](Backend& target) mutable { target.copy_to_host(source, host); });
        inner_->copy_to_host(source, host);
    }
    void do_copy(const Tensor& source, Tensor& destination) override {
        record([=](Backend& target) mutable { target.copy(source, destination); });
        inner_->copy(source, destination);
    }
    void do_fill(Tensor& tensor, double value) override {
        record([=](Backend& target) mutable { target.fill(tensor, value); });
        inner_->fill(tensor, value);
    }
    void do_convert(const Tensor& source, Tensor& destination) override {
        record([=](Backend& target) mutable { target.convert(source, destination); });
        inner_->convert(source, destination);
    }
    void do_gather_rows(const Tensor& source, const Tensor& indices, Tensor& destination) override {
        record([=](Backend& target) mutable { target.gather_rows(source, indices, destination); });
        inner_->gather_rows(source, indices, destination);
    }
    void do_conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& bias, Tensor& y,
                           const Conv2dGeometry& geometry) override {
        record([=](Backend& target) mutable { target.conv2d_forward(x, w, bias, y, geometry); });
        inner_->conv2d_forward(x, w, bias, y, geometry);
    }
    void do_conv2d_backward_data(const Tensor& dy, const Tensor& w, Tensor& dx,
                                 const Conv2dGeometry& geometry) override {
        record([=](Backend& target) mutable { target.conv2d_backward_data(dy, w, dx, geometry); });
        inner_->conv2d_backward_data(dy, w, dx, geometry);
    }
    void do_conv2d_backward_filter(const Tensor& x, const Tensor& dy, Tensor& dw, Tensor& dbias,
                                   const Conv2dGeometry& geometry) override {
        record([=](Backend& target) mutable {
            target.conv2d_backward_filter(x, dy, dw, dbias, geometry);
        });
        inner_->conv2d_backward_filter(x, dy, dw, dbias, geometry);
    }
    void do_gemm(bool transpose_a, bool transpose_b, double alpha, const Tensor& a, const Tensor& b,
                 double beta, Tensor& c) override {
        record([=](Backend& target) mutable {
            target.gemm(transpose_a, transpose_b, alpha, a, b, beta, c);
        });
        inner_->gemm(transpose_a, transpose_b, alpha, a, b, beta, c);
    }
    void do_add_bias(Tensor& y, const Tensor& bias) override {
        record([=](Backend& target) mutable { target.add_bias(y, bias); });
        inner_->add_bias(y, bias);
    }
    void do_bias_backward(const Tensor& dy, Tensor& dbias) override {
        record([=](Backend& target) mutable { target.bias_backward(dy, dbias); });
        inner_->bias_backward(dy, dbias);
    }
    void do_relu_forward(const Tensor& x, Tensor& y) override {
        record([=](Backend& target) mutable { target.relu_forward(x, y); });
        inner_->relu_forward(x, y);
    }
    void do_relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx) override {
        record([=](Backend& target) mutable { target.relu_backward(y, dy, dx); });
        inner_->relu_backward(y, dy, dx);
    }
    void do_max_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) override {
        record([=](Backend& target) mutable { target.max_pool_forward(x, y, geometry); });
        inner_->max_pool_forward(x, y, geometry);
    }
    void do_max_pool_backward(const Tensor& x, const Tensor& y, const Tensor& dy, Tensor& dx,
                              const Pool2dGeometry& geometry) override {
        record([=](Backend& target) mutable { target.max_pool_backward(x, y, dy, dx, geometry); });
        inner_->max_pool_backward(x, y, dy, dx, geometry);
    }
    void do_avg_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) override {
        record([=](Backend& target) mutable { target.avg_pool_forward(x, y, geometry); });
        inner_->avg_pool_forward(x, y, geometry);
    }
    void do_avg_pool_backward(const Tensor& dy, Tensor& dx,
                              const Pool2dGeometry& geometry) override {
        record([=](Backend& target) mutable { target.avg_pool_backward(dy, dx, geometry); });
        inner_->avg_pool_backward(dy, dx, geometry);
    }
    void do_global_avg_pool_forward(const Tensor& x, Tensor& y) override {
        record([=](Backend& target) mutable { target.global_avg_pool_forward(x, y); });
        inner_->global_avg_pool_forward(x, y);
    }
    void do_global_avg_pool_backward(const Tensor& dy, Tensor& dx) override {
        record([=](Backend& target) mutable { target.global_avg_pool_backward(dy, dx); });
        inner_->global_avg_pool_backward(dy, dx);
    }
    void do_batch_norm_forward_training(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                        Tensor& y, Tensor& running_mean, Tensor& running_var,
                                        Tensor& saved_mean, Tensor& saved_inv_std,
                                        const BatchNormSettings& settings,
                                        bool update_running) override {
        record([=](Backend& b) mutable {
            b.batch_norm_forward_training(x, gamma, beta, y, running_mean, running_var, saved_mean,
                                          saved_inv_std, settings, update_running);
        });
        inner_->batch_norm_forward_training(x, gamma, beta, y, running_mean, running_var,
                                            saved_mean, saved_inv_std, settings, update_running);
    }
    void do_batch_norm_forward_inference(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                         const Tensor& running_mean, const Tensor& running_var,
                                         Tensor& y, const BatchNormSettings& settings) override {
        record([=](Backend& b) mutable {
            b.batch_norm_forward_inference(x, gamma, beta, running_mean, running_var, y, settings);
        });
        inner_->batch_norm_forward_inference(x, gamma, beta, running_mean, running_var, y,
                                             settings);
    }
    void do_batch_norm_backward(const Tensor& x, const Tensor& dy, const Tensor& gamma,
                                const Tensor& saved_mean, const Tensor& saved_inv_std, Tensor& dx,
                                Tensor& dgamma, Tensor& dbeta,
                                const BatchNormSettings& settings) override {
        record([=](Backend& b) mutable {
            b.batch_norm_backward(x, dy, gamma, saved_mean, saved_inv_std, dx, dgamma, dbeta,
                                  settings);
        });
        inner_->batch_norm_backward(x, dy, gamma, saved_mean, saved_inv_std, dx, dgamma, dbeta,
                                    settings);
    }
    void do_add(const Tensor& a, const Tensor& b, Tensor& y) override {
        record([=](Backend& target) mutable { target.add(a, b, y); });
        inner_->add(a, b, y);
    }
    void do_softmax_cross_entropy(const Tensor& logits, const Tensor& labels, double loss_scale,
                                  Tensor& dlogits, CrossEntropyTotals& totals) override {
        record([=](Backend& b) mutable {
            b.softmax_cross_entropy(logits, labels, loss_scale, dlogits, totals);
        });
        inner_->softmax_cross_entropy(logits, labels, loss_scale, dlogits, totals);
    }
    void do_softmax_cross_entropy_deferred(const Tensor& logits, const Tensor& labels,
                                           double loss_scale, Tensor& dlogits) override {
        record([=](Backend& b) mutable {
            b.softmax_cross_entropy_deferred(logits, labels, loss_scale, dlogits);
        });
        inner_->softmax_cross_entropy_deferred(logits, labels, loss_scale, dlogits);
    }
    void do_sgd_update(Tensor& parameter, const Tensor& gradient, Tensor& velocity,
                       const SgdSettings& settings, double grad_factor,
                       const Tensor& skip_if_overflow) override {
        record([=](Backend& b) mutable {
            b.sgd_update(parameter, gradient, velocity, settings, grad_factor, skip_if_overflow);
        });
        inner_->sgd_update(parameter, gradient, velocity, settings, grad_factor, skip_if_overflow);
    }
    void do_adam_update(Tensor& parameter, const Tensor& gradient, Tensor& first_moment,
                        Tensor& second_moment, const AdamSettings& settings, double grad_factor,
                        const Tensor& skip_if_overflow) override {
        record([=](Backend& b) mutable {
            b.adam_update(parameter, gradient, first_moment, second_moment, settings, grad_factor,
                          skip_if_overflow);
        });
        inner_->adam_update(parameter, gradient, first_moment, second_moment, settings, grad_factor,
                            skip_if_overflow);
    }
    void do_round_storage(Tensor& tensor, StorageRounding rounding) override {
        record([=](Backend& target) mutable { target.round_storage(tensor, rounding); });
        inner_->round_storage(tensor, rounding);
    }
    void do_flag_non_finite(const Tensor& tensor, Tensor& overflow) override {
        record([=](Backend& target) mutable { target.flag_non_finite(tensor, overflow); });
        inner_->flag_non_finite(tensor, overflow);
    }

    std::unique_ptr<Backend> inner_;
    std::vector<Call>* calls_;
};

// After warm-up, replays the calls of one step (those since the previous step ended) onto
// a NullBackend: once to warm up, then counted.
class ReplayOneStep : public TrainingObserver {
  public:
    ReplayOneStep(std::vector<Call>& calls, int warmup_steps)
        : calls_(&calls), warmup_steps_(warmup_steps) {}

    bool on_step(const StepRecord&) override {
        if (steps_++ == warmup_steps_ + 1) {
            NullBackend null;
            for (const Call& call : *calls_) {
                call(null);
            }
            const long before = host_allocations();
            for (const Call& call : *calls_) {
                call(null);
            }
            allocations = host_allocations() - before;
            replayed = calls_->size();
            hooks_reached = 0;
            for (const int n : null.hooks) {
                hooks_reached += n;
            }
        }
        calls_->clear();  // the tensors the calls hold go back while their allocator lives
        return true;
    }

    long allocations = -1;
    std::size_t replayed = 0;
    std::size_t hooks_reached = 0;

  private:
    std::vector<Call>* calls_;
    int warmup_steps_;
    int steps_ = 0;
};

std::vector<Call>& recorded_calls() {
    static std::vector<Call> calls;
    return calls;
}

class WorkloadsContractAllocationInTraining : public ::testing::TestWithParam<testing::SmallRun> {};

TEST_P(WorkloadsContractAllocationInTraining, AStepsCallsPassTheContractWithoutAllocating) {
    if (!backend_registered("recorded-cpu")) {
        register_backend("recorded-cpu", [](const BackendOptions& options) {
            return std::make_unique<RecordingBackend>(create_backend("cpu", options),
                                                      recorded_calls());
        });
    }
    const auto& [model, precision] = GetParam();
    TrainingConfig config = testing::small_synthetic_run(model, precision);
    config.backend = "recorded-cpu";
    config.steps = config.warmup_steps + 2;
    ReplayOneStep replay(recorded_calls(), config.warmup_steps);
    run_training(config, &replay);

    ASSERT_GT(replay.replayed, 10u) << "the step made no Backend calls";
    EXPECT_EQ(replay.hooks_reached, 2 * replay.replayed) << "a replayed call failed its checks";
    EXPECT_EQ(replay.allocations, 0) << "host allocations by the Backend contract over the "
                                     << replay.replayed << " calls of one training step";
}

INSTANTIATE_TEST_SUITE_P(ModelsAndPrecisions, WorkloadsContractAllocationInTraining,
                         testing::seed_cnn_and_resnet_fp32_fp16(), testing::small_run_name);

}  // namespace
}  // namespace trainscope::workloads
