#include "workloads/backend/OpCost.hpp"

#include "workloads/backend/BackendContract.hpp"

namespace trainscope::workloads {

namespace {

double bytes_of(const Tensor& t) {
    return t.empty() ? 0.0 : static_cast<double>(t.bytes());  // an absent optional tensor
}

double elements_of(const Tensor& t) {
    return t.empty() ? 0.0 : static_cast<double>(t.elements());
}

// Multiply-adds of a convolution whose input is `x` shaped [N,C,H,W] (or dx), filter
// [K,C,R,S] and output [N,K,P,Q] (or dy): N·K·P·Q·C·R·S.
double conv_multiply_adds(const Tensor& w, const Tensor& output) {
    const Shape& ws = w.shape();
    return static_cast<double>(output.elements()) * static_cast<double>(ws[1] * ws[2] * ws[3]);
}

double window_area(const Pool2dGeometry& g) {
    return static_cast<double>(g.window) * static_cast<double>(g.window);
}

}  // namespace

OpCost conv2d_forward_cost(const Tensor& x, const Tensor& w, const Tensor& bias, const Tensor& y) {
    const double bias_adds = bias.empty() ? 0.0 : elements_of(y);
    return {2.0 * conv_multiply_adds(w, y) + bias_adds,
            bytes_of(x) + bytes_of(w) + bytes_of(bias) + bytes_of(y),
            2.0 * conv_multiply_adds(w, y)};
}

OpCost conv2d_backward_data_cost(const Tensor& dy, const Tensor& w, const Tensor& dx) {
    return {2.0 * conv_multiply_adds(w, dy), bytes_of(dy) + bytes_of(w) + bytes_of(dx),
            2.0 * conv_multiply_adds(w, dy)};
}

OpCost conv2d_backward_filter_cost(const Tensor& x, const Tensor& dy, const Tensor& dw,
                                   const Tensor& dbias) {
    const double bias_adds = dbias.empty() ? 0.0 : elements_of(dy);
    return {2.0 * conv_multiply_adds(dw, dy) + bias_adds,
            bytes_of(x) + bytes_of(dy) + bytes_of(dw) + bytes_of(dbias),
            2.0 * conv_multiply_adds(dw, dy)};
}

OpCost gemm_cost(bool transpose_a, bool transpose_b, const Tensor& a, const Tensor& b, double beta,
                 const Tensor& c) {
    const GemmDims d = gemm_dims(transpose_a, transpose_b, a, b);
    const double mn = static_cast<double>(d.m) * static_cast<double>(d.n);
    const bool accumulates = beta != 0.0;
    const double multiply_adds = 2.0 * mn * static_cast<double>(d.k);
    return {multiply_adds + (accumulates ? 2.0 * mn : 0.0),
            bytes_of(a) + bytes_of(b) + bytes_of(c) * (accumulates ? 2.0 : 1.0), multiply_adds};
}

OpCost add_bias_cost(const Tensor& y, const Tensor& bias) {
    return {elements_of(y), 2.0 * bytes_of(y) + bytes_of(bias)};
}

OpCost bias_backward_cost(const Tensor& dy, const Tensor& dbias) {
    return {elements_of(dy), bytes_of(dy) + bytes_of(dbias)};
}

OpCost relu_forward_cost(const Tensor& x, const Tensor& y) {
    return {elements_of(x), bytes_of(x) + bytes_of(y)};
}

OpCost relu_backward_cost(const Tensor& y, const Tensor& dy, const Tensor& dx) {
    return {elements_of(dx), bytes_of(y) + bytes_of(dy) + bytes_of(dx)};
}

OpCost max_pool_forward_cost(const Tensor& x, const Tensor& y, const Pool2dGeometry& geometry) {
    return {elements_of(y) * window_area(geometry), bytes_of(x) + bytes_of(y)};
}

OpCost max_pool_backward_cost(const Tensor& x, const Tensor& y, const Tensor& dy, const Tensor& dx,
                              const Pool2dGeometry& geometry) {
    return {elements_of(dy) * window_area(geometry),
            bytes_of(x) + bytes_of(y) + bytes_of(dy) + bytes_of(dx)};
}

OpCost avg_pool_forward_cost(const Tensor& x, const Tensor& y, const Pool2dGeometry& geometry) {
    return {elements_of(y) * window_area(geometry), bytes_of(x) + bytes_of(y)};
}

OpCost avg_pool_backward_cost(const Tensor& dy, const Tensor& dx, const Pool2dGeometry& geometry) {
    return {elements_of(dy) * window_area(geometry), bytes_of(dy) + bytes_of(dx)};
}

OpCost global_avg_pool_forward_cost(const Tensor& x, const Tensor& y) {
    return {elements_of(x), bytes_of(x) + bytes_of(y)};
}

OpCost global_avg_pool_backward_cost(const Tensor& dy, const Tensor& dx) {
    return {elements_of(dx), bytes_of(dy) + bytes_of(dx)};
}

OpCost batch_norm_forward_training_cost(const Tensor& x, const Tensor& y, const Tensor& gamma,
                                        bool update_running) {
    // gamma, beta, saved mean, saved 1/std; the running mean and variance read and
    // written when updated.
    const double channel_tensors = update_running ? 8.0 : 4.0;
    return {8.0 * elements_of(x), bytes_of(x) + bytes_of(y) + channel_tensors * bytes_of(gamma)};
}

OpCost batch_norm_forward_inference_cost(const Tensor& x, const Tensor& y, const Tensor& gamma) {
    // gamma, beta, running mean, running variance.
    return {2.0 * elements_of(x), bytes_of(x) + bytes_of(y) + 4.0 * bytes_of(gamma)};
}

OpCost batch_norm_backward_cost(const Tensor& x, const Tensor& dy, const Tensor& dx,
                                const Tensor& gamma) {
    // gamma, saved mean, saved 1/std read; dgamma, dbeta written.
    return {10.0 * elements_of(x),
            bytes_of(x) + bytes_of(dy) + bytes_of(dx) + 5.0 * bytes_of(gamma)};
}

OpCost add_cost(const Tensor& a, const Tensor& b, const Tensor& y) {
    return {elements_of(y), bytes_of(a) + bytes_of(b) + bytes_of(y)};
}

OpCost softmax_cross_entropy_cost(const Tensor& logits, const Tensor& labels,
                                  const Tensor& dlogits) {
    const double per_logit = dlogits.empty() ? 5.0 : 6.0;
    return {per_logit * elements_of(logits),
            bytes_of(logits) + bytes_of(labels) + bytes_of(dlogits)};
}

OpCost sgd_update_cost(const Tensor& parameter, const Tensor& gradient, const Tensor& velocity,
                       const SgdSettings& settings) {
    const double per_element = settings.weight_decay != 0.0 ? 7.0 : 5.0;
    return {per_element * elements_of(parameter),
            2.0 * bytes_of(parameter) + bytes_of(gradient) + 2.0 * bytes_of(velocity)};
}

OpCost adam_update_cost(const Tensor& parameter, const Tensor& gradient, const Tensor& first_moment,
                        const Tensor& second_moment) {
    return {14.0 * elements_of(parameter), 2.0 * bytes_of(parameter) + bytes_of(gradient) +
                                               2.0 * bytes_of(first_moment) +
                                               2.0 * bytes_of(second_moment)};
}

OpCost copy_cost(const Tensor& source, const Tensor& destination) {
    return {0.0, bytes_of(source) + bytes_of(destination)};
}

OpCost fill_cost(const Tensor& tensor) {
    return {0.0, bytes_of(tensor)};
}

OpCost round_storage_cost(const Tensor& tensor) {
    return {elements_of(tensor), 2.0 * bytes_of(tensor)};
}

OpCost flag_non_finite_cost(const Tensor& tensor) {
    return {elements_of(tensor), bytes_of(tensor)};
}

}  // namespace trainscope::workloads
