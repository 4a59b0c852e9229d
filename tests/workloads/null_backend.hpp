#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>

#include "workloads/backend/Backend.hpp"
#include "workloads/backend/BackendOp.hpp"
#include "workloads/backends/cpu/HostRawAllocator.hpp"

namespace trainscope::workloads {

// Hooks that only count their calls (into a fixed array): a call reaching a hook passed
// the contract, and nothing here allocates.
class NullBackend final : public Backend {
  public:
    std::array<int, kBackendOpCount> hooks{};

    std::string name() const override { return "null"; }
    RawAllocator& raw_allocator() override { return memory_; }
    std::map<std::string, std::string> environment() const override { return {}; }
    void synchronize() override {}
    void set_math_mode(MathMode) override {}
    StepTimer& start_step_timer() override {
        timer_.start();
        return timer_;
    }
    bool emulates(Precision) const override { return false; }
    DType storage_dtype(Precision) const override { return DType::f32; }
    CrossEntropyTotals take_loss_totals() override { return {}; }

  private:
    void ran(BackendOp op) { ++hooks[static_cast<std::size_t>(op)]; }

    void do_copy_from_host(const void*, Tensor&) override { ran(BackendOp::copy_from_host); }
    void do_copy_to_host(const Tensor&, void*) override { ran(BackendOp::copy_to_host); }
    void do_copy(const Tensor&, Tensor&) override { ran(BackendOp::copy); }
    void do_fill(Tensor&, double) override { ran(BackendOp::fill); }
    void do_convert(const Tensor&, Tensor&) override { ran(BackendOp::convert); }
    void do_gather_rows(const Tensor&, const Tensor&, Tensor&) override {
        ran(BackendOp::gather_rows);
    }
    void do_conv2d_forward(const Tensor&, const Tensor&, const Tensor&, Tensor&,
                           const Conv2dGeometry&) override {
        ran(BackendOp::conv2d_forward);
    }
    void do_conv2d_backward_data(const Tensor&, const Tensor&, Tensor&,
                                 const Conv2dGeometry&) override {
        ran(BackendOp::conv2d_backward_data);
    }
    void do_conv2d_backward_filter(const Tensor&, const Tensor&, Tensor&, Tensor&,
                                   const Conv2dGeometry&) override {
        ran(BackendOp::conv2d_backward_filter);
    }
    void do_gemm(bool, bool, double, const Tensor&, const Tensor&, double, Tensor&) override {
        ran(BackendOp::gemm);
    }
    void do_add_bias(Tensor&, const Tensor&) override { ran(BackendOp::add_bias); }
    void do_bias_backward(const Tensor&, Tensor&) override { ran(BackendOp::bias_backward); }
    void do_relu_forward(const Tensor&, Tensor&) override { ran(BackendOp::relu_forward); }
    void do_relu_backward(const Tensor&, const Tensor&, Tensor&) override {
        ran(BackendOp::relu_backward);
    }
    void do_max_pool_forward(const Tensor&, Tensor&, const Pool2dGeometry&) override {
        ran(BackendOp::max_pool_forward);
    }
    void do_max_pool_backward(const Tensor&, const Tensor&, const Tensor&, Tensor&,
                              const Pool2dGeometry&) override {
        ran(BackendOp::max_pool_backward);
    }
    void do_avg_pool_forward(const Tensor&, Tensor&, const Pool2dGeometry&) override {
        ran(BackendOp::avg_pool_forward);
    }
    void do_avg_pool_backward(const Tensor&, Tensor&, const Pool2dGeometry&) override {
        ran(BackendOp::avg_pool_backward);
    }
    void do_global_avg_pool_forward(const Tensor&, Tensor&) override {
        ran(BackendOp::global_avg_pool_forward);
    }
    void do_global_avg_pool_backward(const Tensor&, Tensor&) override {
        ran(BackendOp::global_avg_pool_backward);
    }
    void do_batch_norm_forward_training(const Tensor&, const Tensor&, const Tensor&, Tensor&,
                                        Tensor&, Tensor&, Tensor&, Tensor&,
                                        const BatchNormSettings&, bool) override {
        ran(BackendOp::batch_norm_forward_training);
    }
    void do_batch_norm_forward_inference(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                         const Tensor&, Tensor&,
                                         const BatchNormSettings&) override {
        ran(BackendOp::batch_norm_forward_inference);
    }
    void do_batch_norm_backward(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                const Tensor&, Tensor&, Tensor&, Tensor&,
                                const BatchNormSettings&) override {
        ran(BackendOp::batch_norm_backward);
    }
    void do_add(const Tensor&, const Tensor&, Tensor&) override { ran(BackendOp::add); }
    void do_softmax_cross_entropy(const Tensor&, const Tensor&, double, Tensor&,
                                  CrossEntropyTotals&) override {
        ran(BackendOp::softmax_cross_entropy);
    }
    void do_softmax_cross_entropy_deferred(const Tensor&, const Tensor&, double, Tensor&) override {
        ran(BackendOp::softmax_cross_entropy_deferred);
    }
    void do_sgd_update(Tensor&, const Tensor&, Tensor&, const SgdSettings&, double,
                       const Tensor&) override {
        ran(BackendOp::sgd_update);
    }
    void do_adam_update(Tensor&, const Tensor&, Tensor&, Tensor&, const AdamSettings&, double,
                        const Tensor&) override {
        ran(BackendOp::adam_update);
    }
    void do_round_storage(Tensor&, StorageRounding) override { ran(BackendOp::round_storage); }
    void do_flag_non_finite(const Tensor&, Tensor&) override { ran(BackendOp::flag_non_finite); }

    HostRawAllocator memory_;
    SteadyClockStepTimer timer_;
};

}  // namespace trainscope::workloads
