#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/backend/StepTimer.hpp"
#include "workloads/memory/MemoryLedger.hpp"
#include "workloads/memory/RawAllocator.hpp"
#include "workloads/numerics/Precision.hpp"
#include "workloads/tensor/Tensor.hpp"

namespace trainscope::workloads {

// Everything the training loop asks of a compute device. Tensors are handles to this
// backend's memory (made by a TensorAllocator over raw_allocator(), possibly through a
// pool); contents cross to and from the host only through copy_from_host/copy_to_host.
// Float tensors are all f32 or all f64 within one call, except on a backend that stores
// mixed precision natively (storage_dtype is f16/bf16): there activations, their
// gradients, weight compute copies and weight gradients are 16-bit while master weights,
// optimizer state and batch-norm scale/shift/statistics (and their gradients) stay f32,
// as the operations below say; labels are i32. Outputs are
// written, never accumulated into, unless an operation says so. Layouts are NCHW and
// row-major. A CUDA backend implements the same calls with cuDNN/cuBLAS and kernels.
//
// The operations are a non-virtual public interface: each checks the Backend contract
// below (shapes, dtypes, element counts; BackendContract.hpp) once, for every backend,
// and throws ContractError (a bug, not bad input) naming the backend, the op, the
// argument and what was expected against what it got; then it calls the backend's private
// hook do_<op>. A backend implements the hooks and checks only what is its own (the dtypes
// it stores, a library's limits), never the contract again.
class Backend {
  public:
    virtual ~Backend() = default;

    virtual std::string name() const = 0;
    virtual RawAllocator& raw_allocator() = 0;
    // Library versions, device, threads... for the run's environment.
    virtual std::map<std::string, std::string> environment() const = 0;
    // Returns once all queued work is done (step timing reads the clock after this).
    virtual void synchronize() = 0;
    // tf32 makes convolutions and GEMMs round their inputs to tf32 and accumulate in fp32.
    virtual void set_math_mode(MathMode mode) = 0;
    // Starts timing a training step on this backend's clock (see StepTimer) and returns the
    // timer, which is the backend's own: each call restarts it (one step is timed at a
    // time), so opening a step's window allocates nothing.
    virtual StepTimer& start_step_timer() = 0;
    // True when `precision` runs here as an emulation (values rounded to its format at the
    // storage points, arithmetic in a wider native type) rather than in its own hardware
    // format; results carry it as TrainingResult::emulated.
    virtual bool emulates(Precision precision) const = 0;
    // The dtype in which this backend stores activations, their gradients, the compute
    // copies of weights and the weights' gradients for `precision`: f16/bf16 where it runs
    // those precisions natively, otherwise the master dtype (f32; f64 for fp64), which the
    // engine then rounds with round_storage where the precision stores reduced values.
    virtual DType storage_dtype(Precision precision) const = 0;
    // The queue the backend's work runs on (a cudaStream_t on CUDA), for a communicator
    // that orders its collectives against it; null where work runs as it is called (cpu).
    virtual void* native_stream() { return nullptr; }
    // The run's ledger, told of the memory this backend's ops use outside the tensors
    // (convolution workspaces, scratch buffers) as TensorClass::workspace while an op
    // holds it (WorkspaceUse); null stops it. A backend without such memory ignores it.
    virtual void set_workspace_ledger(MemoryLedger* /*ledger*/) {}

    // Memory.
    void copy_from_host(const void* host, Tensor& destination);
    void copy_to_host(const Tensor& source, void* host);
    void copy(const Tensor& source, Tensor& destination);
    void fill(Tensor& tensor, double value);
    // destination = source converted element by element (round to nearest even), same
    // element count. The engine converts master weights into 16-bit compute copies after
    // every update and f32 input batches into the storage dtype; a backend supports at
    // least f32/f64 and its own storage dtypes to and from f32.
    void convert(const Tensor& source, Tensor& destination);
    // destination[r, ...] = source[indices[r], ...] along dimension 0, bit for bit, for any
    // dtype; indices is i32 [rows of destination], each in [0, rows of source). Gathers a
    // batch from a dataset kept in this backend's memory (placement=resident).
    void gather_rows(const Tensor& source, const Tensor& indices, Tensor& destination);

    // Convolution: x [N,C,H,W], w [K,C,R,S], y [N,K,P,Q]; bias [K] optional (may be empty).
    void conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& bias, Tensor& y,
                        const Conv2dGeometry& geometry);
    void conv2d_backward_data(const Tensor& dy, const Tensor& w, Tensor& dx,
                              const Conv2dGeometry& geometry);
    // dbias may be empty when the convolution has no bias.
    void conv2d_backward_filter(const Tensor& x, const Tensor& dy, Tensor& dw, Tensor& dbias,
                                const Conv2dGeometry& geometry);

    // c = alpha * op(a) * op(b) + beta * c on the 2-D views [dim0, rest] of the tensors.
    void gemm(bool transpose_a, bool transpose_b, double alpha, const Tensor& a, const Tensor& b,
              double beta, Tensor& c);
    // y[n, c, ...] += bias[c]; bias_backward: dbias[c] = sum over n and space of dy.
    void add_bias(Tensor& y, const Tensor& bias);
    void bias_backward(const Tensor& dy, Tensor& dbias);

    void relu_forward(const Tensor& x, Tensor& y);
    // dx = dy where y > 0, else 0.
    void relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx);

    void max_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry);
    // The gradient of each window goes to its first maximum in x. Where a window holds
    // several equal maxima, the CUDA backend (cuDNN's max pooling, whose tie rule is not
    // documented) may route it to another of them. That is harmless here: a tie after ReLU
    // is almost always a tie of zeros, whose ReLU gradient upstream is zero whichever
    // position receives it, and every choice among equal maxima is a valid subgradient.
    // y is max_pool_forward's output for x (cuDNN finds each window's maximum through it;
    // the CPU backend rescans x).
    void max_pool_backward(const Tensor& x, const Tensor& y, const Tensor& dy, Tensor& dx,
                           const Pool2dGeometry& geometry);
    // Padding counts as zeros in the average (count_include_pad).
    void avg_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry);
    void avg_pool_backward(const Tensor& dy, Tensor& dx, const Pool2dGeometry& geometry);
    // x [N,C,H,W] -> y [N,C].
    void global_avg_pool_forward(const Tensor& x, Tensor& y);
    void global_avg_pool_backward(const Tensor& dy, Tensor& dx);

    // Batch normalization per channel over N,H,W. Training mode normalizes with the batch
    // statistics, saves mean and 1/sqrt(var + eps) for backward, and blends them into the
    // running statistics when update_running is set (not while recomputing). x, y, dy, dx
    // are in the storage dtype; gamma, beta, the statistics, dgamma and dbeta in the
    // master dtype (cuDNN's rule for 16-bit data: float parameters).
    void batch_norm_forward_training(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                     Tensor& y, Tensor& running_mean, Tensor& running_var,
                                     Tensor& saved_mean, Tensor& saved_inv_std,
                                     const BatchNormSettings& settings, bool update_running);
    void batch_norm_forward_inference(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                      const Tensor& running_mean, const Tensor& running_var,
                                      Tensor& y, const BatchNormSettings& settings);
    void batch_norm_backward(const Tensor& x, const Tensor& dy, const Tensor& gamma,
                             const Tensor& saved_mean, const Tensor& saved_inv_std, Tensor& dx,
                             Tensor& dgamma, Tensor& dbeta, const BatchNormSettings& settings);

    // y = a + b (residual joins, gradient fan-in).
    void add(const Tensor& a, const Tensor& b, Tensor& y);

    // Mean softmax cross-entropy of logits [N, classes] against labels [N] (i32). When
    // dlogits is not empty it receives d(loss * loss_scale)/dlogits. Adds to totals.
    void softmax_cross_entropy(const Tensor& logits, const Tensor& labels, double loss_scale,
                               Tensor& dlogits, CrossEntropyTotals& totals);

    // softmax_cross_entropy whose totals stay with the backend until take_loss_totals():
    // a step captured into a CUDA graph cannot read them back while it runs. A backend may
    // fill them at once (cpu) or keep them on the device until the step is done (cuda).
    void softmax_cross_entropy_deferred(const Tensor& logits, const Tensor& labels,
                                        double loss_scale, Tensor& dlogits);
    // After synchronize(): the totals of every deferred call since the last take, added in
    // call order (within a call in row order, as softmax_cross_entropy adds them); resets.
    virtual CrossEntropyTotals take_loss_totals() = 0;

    // Step capture (cuda_graph=true; docs/cuda-backend.md, "CUDA graphs"). Work queued
    // between begin_step_capture() and end_step_capture() is recorded, not run (no host
    // reads, synchronizations or device allocations may happen in between);
    // end_step_capture() then runs it once, and every replay_step() runs it again as the
    // next training step: the tensors it touched must keep their addresses and contents
    // it reads must be refreshed in place. Backends without graphs refuse cuda_graph in
    // validation; these defaults are never reached then.
    virtual void begin_step_capture() {
        throw std::logic_error(name() + " backend: no step capture");
    }
    virtual void end_step_capture() {
        throw std::logic_error(name() + " backend: no step capture");
    }
    // A replay follows a launch that applied its optimizer updates (the engine recaptures
    // after a skipped fp16 step), so the step counts the captured updates use (Adam's
    // bias correction) move one step on. A new begin_step_capture() replaces the
    // captured step.
    virtual void replay_step() { throw std::logic_error(name() + " backend: no step capture"); }
    // Ends an open capture and discards it (the step threw while it was captured), so the
    // backend's memory can be freed; nothing to do without an open capture.
    virtual void abandon_step_capture() noexcept {}

    // Optimizer updates on master parameters; gradients are multiplied by grad_factor
    // first (1 / loss scale). PyTorch's update rules. The gradient may be in the storage
    // dtype (f16/bf16) while parameter and state are f32. skip_if_overflow is empty or an
    // overflow flag (see flag_non_finite): when it holds 1 the update leaves parameter
    // and state untouched, decided where the update runs, so no host read stands
    // between the backward pass and the update and a captured step can hold the skip.
    void sgd_update(Tensor& parameter, const Tensor& gradient, Tensor& velocity,
                    const SgdSettings& settings, double grad_factor,
                    const Tensor& skip_if_overflow);
    void adam_update(Tensor& parameter, const Tensor& gradient, Tensor& first_moment,
                     Tensor& second_moment, const AdamSettings& settings, double grad_factor,
                     const Tensor& skip_if_overflow);

    // Reduced-precision emulation: round every element to fp16/bf16 (f32 tensors only).
    void round_storage(Tensor& tensor, StorageRounding rounding);
    // Gradient overflow under dynamic loss scaling (fp16). overflow is an f32 tensor [1]
    // of this backend that the engine zeroes (fill) before a step's checks; this sets it
    // to 1 when `tensor` (any float dtype this backend stores) holds an inf or NaN and
    // leaves it alone otherwise. The engine reads it once per step after synchronize(),
    // as PyTorch's GradScaler reads its found_inf.
    void flag_non_finite(const Tensor& tensor, Tensor& overflow);

  private:
    // CountingBackend forwards each hook to the backend it wraps, past the checks its
    // own public call already made.
    friend class CountingBackend;

    virtual void do_copy_from_host(const void* host, Tensor& destination) = 0;
    virtual void do_copy_to_host(const Tensor& source, void* host) = 0;
    virtual void do_copy(const Tensor& source, Tensor& destination) = 0;
    virtual void do_fill(Tensor& tensor, double value) = 0;
    virtual void do_convert(const Tensor& source, Tensor& destination) = 0;
    virtual void do_gather_rows(const Tensor& source, const Tensor& indices,
                                Tensor& destination) = 0;
    virtual void do_conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& bias, Tensor& y,
                                   const Conv2dGeometry& geometry) = 0;
    virtual void do_conv2d_backward_data(const Tensor& dy, const Tensor& w, Tensor& dx,
                                         const Conv2dGeometry& geometry) = 0;
    virtual void do_conv2d_backward_filter(const Tensor& x, const Tensor& dy, Tensor& dw,
                                           Tensor& dbias, const Conv2dGeometry& geometry) = 0;
    virtual void do_gemm(bool transpose_a, bool transpose_b, double alpha, const Tensor& a,
                         const Tensor& b, double beta, Tensor& c) = 0;
    virtual void do_add_bias(Tensor& y, const Tensor& bias) = 0;
    virtual void do_bias_backward(const Tensor& dy, Tensor& dbias) = 0;
    virtual void do_relu_forward(const Tensor& x, Tensor& y) = 0;
    virtual void do_relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx) = 0;
    virtual void do_max_pool_forward(const Tensor& x, Tensor& y,
                                     const Pool2dGeometry& geometry) = 0;
    virtual void do_max_pool_backward(const Tensor& x, const Tensor& y, const Tensor& dy,
                                      Tensor& dx, const Pool2dGeometry& geometry) = 0;
    virtual void do_avg_pool_forward(const Tensor& x, Tensor& y,
                                     const Pool2dGeometry& geometry) = 0;
    virtual void do_avg_pool_backward(const Tensor& dy, Tensor& dx,
                                      const Pool2dGeometry& geometry) = 0;
    virtual void do_global_avg_pool_forward(const Tensor& x, Tensor& y) = 0;
    virtual void do_global_avg_pool_backward(const Tensor& dy, Tensor& dx) = 0;
    virtual void do_batch_norm_forward_training(const Tensor& x, const Tensor& gamma,
                                                const Tensor& beta, Tensor& y, Tensor& running_mean,
                                                Tensor& running_var, Tensor& saved_mean,
                                                Tensor& saved_inv_std,
                                                const BatchNormSettings& settings,
                                                bool update_running) = 0;
    virtual void do_batch_norm_forward_inference(const Tensor& x, const Tensor& gamma,
                                                 const Tensor& beta, const Tensor& running_mean,
                                                 const Tensor& running_var, Tensor& y,
                                                 const BatchNormSettings& settings) = 0;
    virtual void do_batch_norm_backward(const Tensor& x, const Tensor& dy, const Tensor& gamma,
                                        const Tensor& saved_mean, const Tensor& saved_inv_std,
                                        Tensor& dx, Tensor& dgamma, Tensor& dbeta,
                                        const BatchNormSettings& settings) = 0;
    virtual void do_add(const Tensor& a, const Tensor& b, Tensor& y) = 0;
    virtual void do_softmax_cross_entropy(const Tensor& logits, const Tensor& labels,
                                          double loss_scale, Tensor& dlogits,
                                          CrossEntropyTotals& totals) = 0;
    virtual void do_softmax_cross_entropy_deferred(const Tensor& logits, const Tensor& labels,
                                                   double loss_scale, Tensor& dlogits) = 0;
    virtual void do_sgd_update(Tensor& parameter, const Tensor& gradient, Tensor& velocity,
                               const SgdSettings& settings, double grad_factor,
                               const Tensor& skip_if_overflow) = 0;
    virtual void do_adam_update(Tensor& parameter, const Tensor& gradient, Tensor& first_moment,
                                Tensor& second_moment, const AdamSettings& settings,
                                double grad_factor, const Tensor& skip_if_overflow) = 0;
    virtual void do_round_storage(Tensor& tensor, StorageRounding rounding) = 0;
    virtual void do_flag_non_finite(const Tensor& tensor, Tensor& overflow) = 0;
};

}  // namespace trainscope::workloads
