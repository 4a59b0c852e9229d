#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "workloads/backend/Backend.hpp"
#include "workloads/backend/BackendOp.hpp"
#include "workloads/backend/OpCost.hpp"
#include "workloads/backend/StepCounts.hpp"
#include "workloads/memory/CountingRawAllocator.hpp"

namespace trainscope::workloads {

// Wraps any backend and counts what the engine asks of it: calls per operation, the
// waits (synchronize, copy_to_host), host-to-device copies and, through raw_allocator(),
// the backend allocations below the pool. The engine trains through one for every run,
// so each step's counts are recorded on every backend; a count costs an increment.
// It sees the interface only: allocations and waits a backend makes inside an operation
// (cuDNN workspace growth, a pinned staging copy's wait) show in a CUDA trace's API
// records instead (profiler/analysis/StepApiCounts).
//
// Every Backend hook and virtual is forwarded. A virtual added to Backend must be
// forwarded here too (and named in BackendOp.hpp), or calls reach the base class's
// default instead of the backend. CountingBackend.CountsEveryOperationOnce
// (workloads_step_counts_test) catches a missing forward of an operation that has a
// default.
class CountingBackend final : public Backend {
  public:
    explicit CountingBackend(std::unique_ptr<Backend> inner);

    Backend& inner() { return *inner_; }
    // Totals since construction; tensor counts are the TensorAllocator's and stay 0 here.
    StepCounts counts() const;
    std::int64_t calls(BackendOp op) const { return calls_[static_cast<std::size_t>(op)]; }
    const std::array<std::int64_t, kBackendOpCount>& calls() const { return calls_; }
    // FLOPs and minimum bytes of every operation called since construction (OpCost; the
    // figures each op's NVTX range carries): model FLOPs and a step's achieved FLOP/s
    // come from here on every backend, traced or not.
    const OpCost& work() const { return work_; }

    std::string name() const override { return inner_->name(); }
    RawAllocator& raw_allocator() override { return raw_; }
    std::map<std::string, std::string> environment() const override {
        return inner_->environment();
    }
    void synchronize() override;
    void set_math_mode(MathMode mode) override { inner_->set_math_mode(mode); }
    StepTimer& start_step_timer() override { return inner_->start_step_timer(); }
    bool emulates(Precision precision) const override { return inner_->emulates(precision); }
    DType storage_dtype(Precision precision) const override {
        return inner_->storage_dtype(precision);
    }
    void* native_stream() override { return inner_->native_stream(); }
    void set_workspace_ledger(MemoryLedger* ledger) override {
        inner_->set_workspace_ledger(ledger);
    }
    CrossEntropyTotals take_loss_totals() override;
    void begin_step_capture() override;
    void end_step_capture() override;
    void replay_step() override;
    void abandon_step_capture() noexcept override;

  private:
    // Each hook counts and calls the wrapped backend's hook: the contract was checked
    // once, by this layer's public call (Backend is this class's friend for that).

    void do_copy_from_host(const void* host, Tensor& destination) override;
    void do_copy_to_host(const Tensor& source, void* host) override;
    void do_copy(const Tensor& source, Tensor& destination) override;
    void do_fill(Tensor& tensor, double value) override;
    void do_convert(const Tensor& source, Tensor& destination) override;
    void do_gather_rows(const Tensor& source, const Tensor& indices, Tensor& destination) override;
    void do_conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& bias, Tensor& y,
                           const Conv2dGeometry& geometry) override;
    void do_conv2d_backward_data(const Tensor& dy, const Tensor& w, Tensor& dx,
                                 const Conv2dGeometry& geometry) override;
    void do_conv2d_backward_filter(const Tensor& x, const Tensor& dy, Tensor& dw, Tensor& dbias,
                                   const Conv2dGeometry& geometry) override;
    void do_gemm(bool transpose_a, bool transpose_b, double alpha, const Tensor& a, const Tensor& b,
                 double beta, Tensor& c) override;
    void do_add_bias(Tensor& y, const Tensor& bias) override;
    void do_bias_backward(const Tensor& dy, Tensor& dbias) override;
    void do_relu_forward(const Tensor& x, Tensor& y) override;
    void do_relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx) override;
    void do_max_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) override;
    void do_max_pool_backward(const Tensor& x, const Tensor& y, const Tensor& dy, Tensor& dx,
                              const Pool2dGeometry& geometry) override;
    void do_avg_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) override;
    void do_avg_pool_backward(const Tensor& dy, Tensor& dx,
                              const Pool2dGeometry& geometry) override;
    void do_global_avg_pool_forward(const Tensor& x, Tensor& y) override;
    void do_global_avg_pool_backward(const Tensor& dy, Tensor& dx) override;
    void do_batch_norm_forward_training(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                        Tensor& y, Tensor& running_mean, Tensor& running_var,
                                        Tensor& saved_mean, Tensor& saved_inv_std,
                                        const BatchNormSettings& settings,
                                        bool update_running) override;
    void do_batch_norm_forward_inference(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                         const Tensor& running_mean, const Tensor& running_var,
                                         Tensor& y, const BatchNormSettings& settings) override;
    void do_batch_norm_backward(const Tensor& x, const Tensor& dy, const Tensor& gamma,
                                const Tensor& saved_mean, const Tensor& saved_inv_std, Tensor& dx,
                                Tensor& dgamma, Tensor& dbeta,
                                const BatchNormSettings& settings) override;
    void do_add(const Tensor& a, const Tensor& b, Tensor& y) override;
    void do_softmax_cross_entropy(const Tensor& logits, const Tensor& labels, double loss_scale,
                                  Tensor& dlogits, CrossEntropyTotals& totals) override;
    void do_softmax_cross_entropy_deferred(const Tensor& logits, const Tensor& labels,
                                           double loss_scale, Tensor& dlogits) override;
    void do_sgd_update(Tensor& parameter, const Tensor& gradient, Tensor& velocity,
                       const SgdSettings& settings, double grad_factor,
                       const Tensor& skip_if_overflow) override;
    void do_adam_update(Tensor& parameter, const Tensor& gradient, Tensor& first_moment,
                        Tensor& second_moment, const AdamSettings& settings, double grad_factor,
                        const Tensor& skip_if_overflow) override;
    void do_round_storage(Tensor& tensor, StorageRounding rounding) override;
    void do_flag_non_finite(const Tensor& tensor, Tensor& overflow) override;

    void count(BackendOp op) { ++calls_[static_cast<std::size_t>(op)]; }
    void count(BackendOp op, const OpCost& cost) {
        count(op);
        work_ += cost;
    }

    std::unique_ptr<Backend> inner_;
    CountingRawAllocator raw_;
    std::array<std::int64_t, kBackendOpCount> calls_{};
    OpCost work_;
};

}  // namespace trainscope::workloads
