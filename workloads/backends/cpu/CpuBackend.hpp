#pragma once

#include <memory>
#include <vector>

#include "workloads/backend/Backend.hpp"
#include "workloads/backends/cpu/AlignedBuffer.hpp"
#include "workloads/backends/cpu/HostRawAllocator.hpp"
#include "workloads/backends/cpu/ThreadPool.hpp"
#include "workloads/backends/cpu/detail/CpuKernelContext.hpp"
#include "workloads/backends/cpu/detail/OnednnConvolution.hpp"

namespace trainscope::workloads {

// The CPU backend: oneDNN's direct kernels for fp32 convolutions, OpenBLAS GEMM
// (single-threaded per call) for GEMMs and under im2col convolutions in fp64 and tf32,
// with this backend's own workers (an OpenMP team shared with oneDNN) splitting each
// other operation over images, channels or elements. fp32 and fp64 natively; tf32 by rounding GEMM
// inputs; fp16/bf16 by the training loop's calls to round_storage.
// Not final: tests derive variants that slow one operation down.
class CpuBackend : public Backend {
  public:
    // threads 0: all cores.
    explicit CpuBackend(int threads);

    std::string name() const override { return "cpu"; }
    RawAllocator& raw_allocator() override { return allocator_; }
    void set_workspace_ledger(MemoryLedger* ledger) override { workspace_.set_ledger(ledger); }
    std::map<std::string, std::string> environment() const override;
    void synchronize() override {}
    void set_math_mode(MathMode mode) override { math_ = mode; }
    // Operations finish before they return: the host clock times a step exactly.
    StepTimer& start_step_timer() override {
        step_timer_.start();
        return step_timer_;
    }
    // tf32, fp16 and bf16 are rounding emulations on fp32 arithmetic here.
    bool emulates(Precision precision) const override;
    // Always the master dtype: fp16/bf16 live in f32 storage rounded by round_storage.
    DType storage_dtype(Precision precision) const override;
    int threads() const { return pool_.size(); }
    CrossEntropyTotals take_loss_totals() override;

  protected:
    // The Backend hooks (Backend checked the contract); protected for the test variants.
    void do_copy_from_host(const void* host, Tensor& destination) override;
    void do_copy_to_host(const Tensor& source, void* host) override;
    void do_copy(const Tensor& source, Tensor& destination) override;
    void do_fill(Tensor& tensor, double value) override;
    // Between f32 and f64 (the only dtypes this backend stores).
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

  private:
    cpu::KernelContext kernel_context();
    enum class ConvolutionPass { forward, backward_data, backward_filter };
    bool uses_onednn(const Tensor& x, std::int64_t input_channels, ConvolutionPass pass) const;

    HostRawAllocator allocator_;
    ThreadPool pool_;
    // The scratch buffers' and oneDNN's bytes an op uses: the run's workspace class.
    WorkspaceUse workspace_;
    std::vector<AlignedBuffer> worker_scratch_;
    AlignedBuffer shared_scratch_;
    AlignedBuffer shared_scratch_2_;
    MathMode math_ = MathMode::native;
    SteadyClockStepTimer step_timer_;
    cpu::OnednnConvolutions onednn_;
    // The deferred loss: computed at once here, handed over at take_loss_totals().
    CrossEntropyTotals deferred_totals_;
};

}  // namespace trainscope::workloads
