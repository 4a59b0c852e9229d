#pragma once

#include <cstdint>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/tensor/Tensor.hpp"

namespace trainscope::workloads {

// What one backend operation must do at least: its floating-point operations (a
// multiply-add counts 2, as PyTorch's FlopCounterMode and every roofline counts it) and
// the bytes it must move (each input, output and weight once, in its stored dtype). The
// op's NVTX range carries both (OpRange), so a trace can place the op on a roofline; the
// formulas are listed in docs/workloads.md, "What each op costs".
struct OpCost {
    double flops = 0.0;
    double bytes = 0.0;
    // The part of `flops` that is multiply-adds of a convolution or GEMM (bias and
    // accumulation left out): what runs on matrix units, and all that PyTorch's
    // FlopCounterMode counts.
    double matmul_flops = 0.0;

    OpCost& operator+=(const OpCost& other) {
        flops += other.flops;
        bytes += other.bytes;
        matmul_flops += other.matmul_flops;
        return *this;
    }
};

// x [N,C,H,W], w [K,C,R,S], y [N,K,P,Q]: 2·N·K·P·Q·C·R·S, plus N·K·P·Q for a bias.
OpCost conv2d_forward_cost(const Tensor& x, const Tensor& w, const Tensor& bias, const Tensor& y);
// The same multiply-adds as forward, reading dy and w, writing dx.
OpCost conv2d_backward_data_cost(const Tensor& dy, const Tensor& w, const Tensor& dx);
// The same multiply-adds, reading x and dy, writing dw; dbias adds N·K·P·Q additions.
OpCost conv2d_backward_filter_cost(const Tensor& x, const Tensor& dy, const Tensor& dw,
                                   const Tensor& dbias);
// c = alpha·op(a)·op(b) + beta·c: 2·m·n·k; beta ≠ 0 reads c as well and adds 2·m·n.
OpCost gemm_cost(bool transpose_a, bool transpose_b, const Tensor& a, const Tensor& b, double beta,
                 const Tensor& c);
// One operation per element of y / dy.
OpCost add_bias_cost(const Tensor& y, const Tensor& bias);
OpCost bias_backward_cost(const Tensor& dy, const Tensor& dbias);
OpCost relu_forward_cost(const Tensor& x, const Tensor& y);
OpCost relu_backward_cost(const Tensor& y, const Tensor& dy, const Tensor& dx);
// window² comparisons (max) or additions (average) per output element.
OpCost max_pool_forward_cost(const Tensor& x, const Tensor& y, const Pool2dGeometry& geometry);
OpCost max_pool_backward_cost(const Tensor& x, const Tensor& y, const Tensor& dy, const Tensor& dx,
                              const Pool2dGeometry& geometry);
OpCost avg_pool_forward_cost(const Tensor& x, const Tensor& y, const Pool2dGeometry& geometry);
OpCost avg_pool_backward_cost(const Tensor& dy, const Tensor& dx, const Pool2dGeometry& geometry);
OpCost global_avg_pool_forward_cost(const Tensor& x, const Tensor& y);
OpCost global_avg_pool_backward_cost(const Tensor& dy, const Tensor& dx);
// Batch norm over N,H,W per channel: training forward 8 per element (mean 1, variance 3,
// normalise, scale and shift 4), inference 2 (one folded multiply-add), backward 10.
// Parameters and statistics (gamma, beta, means, variances) move once each.
OpCost batch_norm_forward_training_cost(const Tensor& x, const Tensor& y, const Tensor& gamma,
                                        bool update_running);
OpCost batch_norm_forward_inference_cost(const Tensor& x, const Tensor& y, const Tensor& gamma);
OpCost batch_norm_backward_cost(const Tensor& x, const Tensor& dy, const Tensor& dx,
                                const Tensor& gamma);
OpCost add_cost(const Tensor& a, const Tensor& b, const Tensor& y);
// 5 per logit (max, subtract, exp, sum, log-softmax or gradient), + 1 when the gradient
// is written (scale).
OpCost softmax_cross_entropy_cost(const Tensor& logits, const Tensor& labels,
                                  const Tensor& dlogits);
// Per parameter: SGD 5 (+2 with weight decay), Adam 14; parameter and state read and
// written, gradient read.
OpCost sgd_update_cost(const Tensor& parameter, const Tensor& gradient, const Tensor& velocity,
                       const SgdSettings& settings);
OpCost adam_update_cost(const Tensor& parameter, const Tensor& gradient, const Tensor& first_moment,
                        const Tensor& second_moment);
// Data movement without arithmetic: source read, destination written.
OpCost copy_cost(const Tensor& source, const Tensor& destination);
OpCost fill_cost(const Tensor& tensor);
// One operation per element (a rounding, a finiteness test).
OpCost round_storage_cost(const Tensor& tensor);
OpCost flag_non_finite_cost(const Tensor& tensor);

}  // namespace trainscope::workloads
