#include "workloads/backend/CountingBackend.hpp"

#include <utility>

#include "workloads/backend/OpCost.hpp"

namespace trainscope::workloads {

CountingBackend::CountingBackend(std::unique_ptr<Backend> inner)
    : inner_(std::move(inner)), raw_(inner_->raw_allocator()) {}

StepCounts CountingBackend::counts() const {
    StepCounts counts;
    counts.allocations = raw_.allocations();
    counts.frees = raw_.frees();
    counts.synchronizations = calls(BackendOp::synchronize) + calls(BackendOp::copy_to_host);
    counts.h2d_copies = calls(BackendOp::copy_from_host);
    for (const std::int64_t n : calls_) {
        counts.backend_calls += n;
    }
    return counts;
}

void CountingBackend::synchronize() {
    count(BackendOp::synchronize);
    inner_->synchronize();
}

void CountingBackend::do_copy_from_host(const void* host, Tensor& destination) {
    count(BackendOp::copy_from_host, copy_cost(destination, destination));
    inner_->do_copy_from_host(host, destination);
}

void CountingBackend::do_copy_to_host(const Tensor& source, void* host) {
    count(BackendOp::copy_to_host, copy_cost(source, source));
    inner_->do_copy_to_host(source, host);
}

void CountingBackend::do_copy(const Tensor& source, Tensor& destination) {
    count(BackendOp::copy, copy_cost(source, destination));
    inner_->do_copy(source, destination);
}

void CountingBackend::do_fill(Tensor& tensor, double value) {
    count(BackendOp::fill, fill_cost(tensor));
    inner_->do_fill(tensor, value);
}

void CountingBackend::do_convert(const Tensor& source, Tensor& destination) {
    count(BackendOp::convert, copy_cost(source, destination));
    inner_->do_convert(source, destination);
}

void CountingBackend::do_gather_rows(const Tensor& source, const Tensor& indices,
                                     Tensor& destination) {
    count(BackendOp::gather_rows, copy_cost(destination, destination));
    inner_->do_gather_rows(source, indices, destination);
}

void CountingBackend::do_conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& bias,
                                        Tensor& y, const Conv2dGeometry& geometry) {
    count(BackendOp::conv2d_forward, conv2d_forward_cost(x, w, bias, y));
    inner_->do_conv2d_forward(x, w, bias, y, geometry);
}

void CountingBackend::do_conv2d_backward_data(const Tensor& dy, const Tensor& w, Tensor& dx,
                                              const Conv2dGeometry& geometry) {
    count(BackendOp::conv2d_backward_data, conv2d_backward_data_cost(dy, w, dx));
    inner_->do_conv2d_backward_data(dy, w, dx, geometry);
}

void CountingBackend::do_conv2d_backward_filter(const Tensor& x, const Tensor& dy, Tensor& dw,
                                                Tensor& dbias, const Conv2dGeometry& geometry) {
    count(BackendOp::conv2d_backward_filter, conv2d_backward_filter_cost(x, dy, dw, dbias));
    inner_->do_conv2d_backward_filter(x, dy, dw, dbias, geometry);
}

void CountingBackend::do_gemm(bool transpose_a, bool transpose_b, double alpha, const Tensor& a,
                              const Tensor& b, double beta, Tensor& c) {
    count(BackendOp::gemm, gemm_cost(transpose_a, transpose_b, a, b, beta, c));
    inner_->do_gemm(transpose_a, transpose_b, alpha, a, b, beta, c);
}

void CountingBackend::do_add_bias(Tensor& y, const Tensor& bias) {
    count(BackendOp::add_bias, add_bias_cost(y, bias));
    inner_->do_add_bias(y, bias);
}

void CountingBackend::do_bias_backward(const Tensor& dy, Tensor& dbias) {
    count(BackendOp::bias_backward, bias_backward_cost(dy, dbias));
    inner_->do_bias_backward(dy, dbias);
}

void CountingBackend::do_relu_forward(const Tensor& x, Tensor& y) {
    count(BackendOp::relu_forward, relu_forward_cost(x, y));
    inner_->do_relu_forward(x, y);
}

void CountingBackend::do_relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx) {
    count(BackendOp::relu_backward, relu_backward_cost(y, dy, dx));
    inner_->do_relu_backward(y, dy, dx);
}

void CountingBackend::do_max_pool_forward(const Tensor& x, Tensor& y,
                                          const Pool2dGeometry& geometry) {
    count(BackendOp::max_pool_forward, max_pool_forward_cost(x, y, geometry));
    inner_->do_max_pool_forward(x, y, geometry);
}

void CountingBackend::do_max_pool_backward(const Tensor& x, const Tensor& y, const Tensor& dy,
                                           Tensor& dx, const Pool2dGeometry& geometry) {
    count(BackendOp::max_pool_backward, max_pool_backward_cost(x, y, dy, dx, geometry));
    inner_->do_max_pool_backward(x, y, dy, dx, geometry);
}

void CountingBackend::do_avg_pool_forward(const Tensor& x, Tensor& y,
                                          const Pool2dGeometry& geometry) {
    count(BackendOp::avg_pool_forward, avg_pool_forward_cost(x, y, geometry));
    inner_->do_avg_pool_forward(x, y, geometry);
}

void CountingBackend::do_avg_pool_backward(const Tensor& dy, Tensor& dx,
                                           const Pool2dGeometry& geometry) {
    count(BackendOp::avg_pool_backward, avg_pool_backward_cost(dy, dx, geometry));
    inner_->do_avg_pool_backward(dy, dx, geometry);
}

void CountingBackend::do_global_avg_pool_forward(const Tensor& x, Tensor& y) {
    count(BackendOp::global_avg_pool_forward, global_avg_pool_forward_cost(x, y));
    inner_->do_global_avg_pool_forward(x, y);
}

void CountingBackend::do_global_avg_pool_backward(const Tensor& dy, Tensor& dx) {
    count(BackendOp::global_avg_pool_backward, global_avg_pool_backward_cost(dy, dx));
    inner_->do_global_avg_pool_backward(dy, dx);
}

void CountingBackend::do_batch_norm_forward_training(const Tensor& x, const Tensor& gamma,
                                                     const Tensor& beta, Tensor& y,
                                                     Tensor& running_mean, Tensor& running_var,
                                                     Tensor& saved_mean, Tensor& saved_inv_std,
                                                     const BatchNormSettings& settings,
                                                     bool update_running) {
    count(BackendOp::batch_norm_forward_training,
          batch_norm_forward_training_cost(x, y, gamma, update_running));
    inner_->do_batch_norm_forward_training(x, gamma, beta, y, running_mean, running_var, saved_mean,
                                           saved_inv_std, settings, update_running);
}

void CountingBackend::do_batch_norm_forward_inference(const Tensor& x, const Tensor& gamma,
                                                      const Tensor& beta,
                                                      const Tensor& running_mean,
                                                      const Tensor& running_var, Tensor& y,
                                                      const BatchNormSettings& settings) {
    count(BackendOp::batch_norm_forward_inference, batch_norm_forward_inference_cost(x, y, gamma));
    inner_->do_batch_norm_forward_inference(x, gamma, beta, running_mean, running_var, y, settings);
}

void CountingBackend::do_batch_norm_backward(const Tensor& x, const Tensor& dy, const Tensor& gamma,
                                             const Tensor& saved_mean, const Tensor& saved_inv_std,
                                             Tensor& dx, Tensor& dgamma, Tensor& dbeta,
                                             const BatchNormSettings& settings) {
    count(BackendOp::batch_norm_backward, batch_norm_backward_cost(x, dy, dx, gamma));
    inner_->do_batch_norm_backward(x, dy, gamma, saved_mean, saved_inv_std, dx, dgamma, dbeta,
                                   settings);
}

void CountingBackend::do_add(const Tensor& a, const Tensor& b, Tensor& y) {
    count(BackendOp::add, add_cost(a, b, y));
    inner_->do_add(a, b, y);
}

void CountingBackend::do_softmax_cross_entropy(const Tensor& logits, const Tensor& labels,
                                               double loss_scale, Tensor& dlogits,
                                               CrossEntropyTotals& totals) {
    count(BackendOp::softmax_cross_entropy, softmax_cross_entropy_cost(logits, labels, dlogits));
    inner_->do_softmax_cross_entropy(logits, labels, loss_scale, dlogits, totals);
}

void CountingBackend::do_softmax_cross_entropy_deferred(const Tensor& logits, const Tensor& labels,
                                                        double loss_scale, Tensor& dlogits) {
    count(BackendOp::softmax_cross_entropy_deferred,
          softmax_cross_entropy_cost(logits, labels, dlogits));
    inner_->do_softmax_cross_entropy_deferred(logits, labels, loss_scale, dlogits);
}

CrossEntropyTotals CountingBackend::take_loss_totals() {
    count(BackendOp::take_loss_totals);
    return inner_->take_loss_totals();
}

void CountingBackend::begin_step_capture() {
    count(BackendOp::begin_step_capture);
    inner_->begin_step_capture();
}

void CountingBackend::end_step_capture() {
    count(BackendOp::end_step_capture);
    inner_->end_step_capture();
}

void CountingBackend::replay_step() {
    count(BackendOp::replay_step);
    inner_->replay_step();
}

void CountingBackend::abandon_step_capture() noexcept {
    count(BackendOp::abandon_step_capture);
    inner_->abandon_step_capture();
}

void CountingBackend::do_sgd_update(Tensor& parameter, const Tensor& gradient, Tensor& velocity,
                                    const SgdSettings& settings, double grad_factor,
                                    const Tensor& skip_if_overflow) {
    count(BackendOp::sgd_update, sgd_update_cost(parameter, gradient, velocity, settings));
    inner_->do_sgd_update(parameter, gradient, velocity, settings, grad_factor, skip_if_overflow);
}

void CountingBackend::do_adam_update(Tensor& parameter, const Tensor& gradient,
                                     Tensor& first_moment, Tensor& second_moment,
                                     const AdamSettings& settings, double grad_factor,
                                     const Tensor& skip_if_overflow) {
    count(BackendOp::adam_update,
          adam_update_cost(parameter, gradient, first_moment, second_moment));
    inner_->do_adam_update(parameter, gradient, first_moment, second_moment, settings, grad_factor,
                           skip_if_overflow);
}

void CountingBackend::do_round_storage(Tensor& tensor, StorageRounding rounding) {
    count(BackendOp::round_storage, round_storage_cost(tensor));
    inner_->do_round_storage(tensor, rounding);
}

void CountingBackend::do_flag_non_finite(const Tensor& tensor, Tensor& overflow) {
    count(BackendOp::flag_non_finite, flag_non_finite_cost(tensor));
    inner_->do_flag_non_finite(tensor, overflow);
}

}  // namespace trainscope::workloads
