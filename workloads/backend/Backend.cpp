// The Backend contract, checked once for every backend before its hook runs.
#include "workloads/backend/Backend.hpp"

#include <string>

#include "workloads/backend/BackendContract.hpp"

namespace trainscope::workloads {
namespace {

std::string extent(std::int64_t value) {
    return std::to_string(value);
}

// x [N,C,H,W], w [K,C,R,S], y [N,K,P,Q] of one float dtype, P and Q following from the
// geometry.
void check_convolution(const Contract& c, const char* x_name, const Tensor& x, const char* w_name,
                       const Tensor& w, const char* y_name, const Tensor& y,
                       const Conv2dGeometry& g) {
    c.rank(x_name, x, 4);
    c.floating(x_name, x);
    c.rank(w_name, w, 4);
    c.same_dtype(w_name, w, x_name, x);
    c.require(w.shape()[1] == x.shape()[1], w_name, w, [&x, x_name] {
        return "C = " + extent(x.shape()[1]) + " input channels (" + x_name + "'s dimension 1)";
    });
    const Shape expected{x.shape()[0], w.shape()[0],
                         conv_output_extent(x.shape()[2], w.shape()[2], g.stride, g.padding),
                         conv_output_extent(x.shape()[3], w.shape()[3], g.stride, g.padding)};
    c.require(!y.empty() && y.dtype() == x.dtype() && y.shape() == expected, y_name, y, [&] {
        return std::string(dtype_name(x.dtype())) + " [" + expected.to_string() + "] (N and K of " +
               x_name + " and " + w_name + ", extents from the geometry)";
    });
}

void check_conv_bias(const Contract& c, const char* name, const Tensor& bias, const Tensor& w) {
    if (bias.empty()) {
        return;
    }
    c.same_dtype(name, bias, "w", w);
    c.elements(name, bias, w.shape()[0], "K, the filters of w");
}

// x [N,C,H,W] -> y [N,C,P,Q] of one float dtype, P and Q the floor formula.
void check_pooling(const Contract& c, const char* x_name, const Tensor& x, const char* y_name,
                   const Tensor& y, const Pool2dGeometry& g) {
    c.rank(x_name, x, 4);
    c.floating(x_name, x);
    const Shape expected{x.shape()[0], x.shape()[1],
                         conv_output_extent(x.shape()[2], g.window, g.stride, g.padding),
                         conv_output_extent(x.shape()[3], g.window, g.stride, g.padding)};
    c.require(!y.empty() && y.dtype() == x.dtype() && y.shape() == expected, y_name, y, [&] {
        return std::string(dtype_name(x.dtype())) + " [" + expected.to_string() + "] (" + x_name +
               " pooled by the geometry)";
    });
}

// x [N,C,H,W] or [N,C] in a float dtype; the per-channel tensors C elements of its master
// dtype.
void check_batch_norm(const Contract& c, const Tensor& x,
                      std::initializer_list<std::pair<const char*, const Tensor*>> like_x,
                      std::initializer_list<std::pair<const char*, const Tensor*>> per_channel) {
    c.floating("x", x);
    c.require(x.shape().rank() == 4 || x.shape().rank() == 2, "x", x, "rank 4 or 2");
    for (const auto& [name, t] : like_x) {
        c.like(name, *t, "x", x);
    }
    for (const auto& [name, t] : per_channel) {
        c.master_of(name, *t, "x", x);
        c.elements(name, *t, x.shape()[1], "C, the channels of x");
    }
}

// An optimizer update: a float master, its gradient of as many elements in the master's
// dtype or a 16-bit storage dtype beside an f32 master, state like the master.
void check_update(const Contract& c, const Tensor& parameter, const Tensor& gradient,
                  std::initializer_list<std::pair<const char*, const Tensor*>> state,
                  const Tensor& skip_if_overflow) {
    c.require(
        !parameter.empty() && (parameter.dtype() == DType::f32 || parameter.dtype() == DType::f64),
        "parameter", parameter, "an f32 or f64 master");
    c.floating("gradient", gradient);
    c.master_of("parameter", parameter, "gradient", gradient);
    c.elements("gradient", gradient, parameter.elements(), "as the parameter");
    for (const auto& [name, t] : state) {
        c.like(name, *t, "parameter", parameter);
    }
    c.overflow_flag("skip_if_overflow", skip_if_overflow, true);
}

}  // namespace

void Backend::copy_from_host(const void* host, Tensor& destination) {
    const Contract c(*this, "copy_from_host");
    c.not_empty("destination", destination);
    if (host == nullptr) {
        c.fail("host", "null", "an address");
    }
    do_copy_from_host(host, destination);
}

void Backend::copy_to_host(const Tensor& source, void* host) {
    const Contract c(*this, "copy_to_host");
    c.not_empty("source", source);
    if (host == nullptr) {
        c.fail("host", "null", "an address");
    }
    do_copy_to_host(source, host);
}

void Backend::copy(const Tensor& source, Tensor& destination) {
    const Contract c(*this, "copy");
    c.not_empty("source", source);
    c.same_dtype("destination", destination, "source", source);
    c.elements("destination", destination, source.elements(), "as the source");
    do_copy(source, destination);
}

void Backend::fill(Tensor& tensor, double value) {
    Contract(*this, "fill").not_empty("tensor", tensor);
    do_fill(tensor, value);
}

void Backend::convert(const Tensor& source, Tensor& destination) {
    const Contract c(*this, "convert");
    c.floating("source", source);
    c.floating("destination", destination);
    c.elements("destination", destination, source.elements(), "as the source");
    do_convert(source, destination);
}

void Backend::gather_rows(const Tensor& source, const Tensor& indices, Tensor& destination) {
    const Contract c(*this, "gather_rows");
    c.not_empty("source", source);
    c.dtype("indices", indices, DType::i32);
    c.rank("indices", indices, 1);
    c.same_dtype("destination", destination, "source", source);
    c.require(destination.shape().rank() == source.shape().rank() &&
                  destination.shape()[0] == indices.elements() &&
                  destination.shape().inner_elements() == source.shape().inner_elements(),
              "destination", destination, [&indices] {
                  return "rows = " + extent(indices.elements()) + " indices of source's row shape";
              });
    do_gather_rows(source, indices, destination);
}

void Backend::conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& bias, Tensor& y,
                             const Conv2dGeometry& geometry) {
    const Contract c(*this, "conv2d_forward");
    check_convolution(c, "x", x, "w", w, "y", y, geometry);
    check_conv_bias(c, "bias", bias, w);
    do_conv2d_forward(x, w, bias, y, geometry);
}

void Backend::conv2d_backward_data(const Tensor& dy, const Tensor& w, Tensor& dx,
                                   const Conv2dGeometry& geometry) {
    check_convolution(Contract(*this, "conv2d_backward_data"), "dx", dx, "w", w, "dy", dy,
                      geometry);
    do_conv2d_backward_data(dy, w, dx, geometry);
}

void Backend::conv2d_backward_filter(const Tensor& x, const Tensor& dy, Tensor& dw, Tensor& dbias,
                                     const Conv2dGeometry& geometry) {
    const Contract c(*this, "conv2d_backward_filter");
    check_convolution(c, "x", x, "dw", dw, "dy", dy, geometry);
    check_conv_bias(c, "dbias", dbias, dw);
    do_conv2d_backward_filter(x, dy, dw, dbias, geometry);
}

void Backend::gemm(bool transpose_a, bool transpose_b, double alpha, const Tensor& a,
                   const Tensor& b, double beta, Tensor& c) {
    const Contract contract(*this, "gemm");
    contract.floating("a", a);
    contract.same_dtype("b", b, "a", a);
    contract.same_dtype("c", c, "a", a);
    const GemmDims dims = gemm_dims(transpose_a, transpose_b, a, b);
    contract.require(dims.b_inner == dims.k, "b", b, [&dims] {
        return "inner dimension " + extent(dims.k) + " (as op(a)'s columns)";
    });
    contract.require(
        c.shape()[0] == dims.m && c.shape().inner_elements() == dims.n, "c", c,
        [&dims] { return extent(dims.m) + " rows of " + extent(dims.n) + " (op(a) x op(b))"; });
    do_gemm(transpose_a, transpose_b, alpha, a, b, beta, c);
}

void Backend::add_bias(Tensor& y, const Tensor& bias) {
    const Contract c(*this, "add_bias");
    c.floating("y", y);
    c.require(y.shape().rank() >= 2, "y", y, "rank 2 or more ([N, C, ...])");
    c.same_dtype("bias", bias, "y", y);
    c.elements("bias", bias, y.shape()[1], "C, y's dimension 1");
    do_add_bias(y, bias);
}

void Backend::bias_backward(const Tensor& dy, Tensor& dbias) {
    const Contract c(*this, "bias_backward");
    c.floating("dy", dy);
    c.require(dy.shape().rank() >= 2, "dy", dy, "rank 2 or more ([N, C, ...])");
    c.same_dtype("dbias", dbias, "dy", dy);
    c.elements("dbias", dbias, dy.shape()[1], "C, dy's dimension 1");
    do_bias_backward(dy, dbias);
}

void Backend::relu_forward(const Tensor& x, Tensor& y) {
    const Contract c(*this, "relu_forward");
    c.floating("x", x);
    c.like("y", y, "x", x);
    do_relu_forward(x, y);
}

void Backend::relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx) {
    const Contract c(*this, "relu_backward");
    c.floating("y", y);
    c.like("dy", dy, "y", y);
    c.like("dx", dx, "y", y);
    do_relu_backward(y, dy, dx);
}

void Backend::max_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) {
    check_pooling(Contract(*this, "max_pool_forward"), "x", x, "y", y, geometry);
    do_max_pool_forward(x, y, geometry);
}

void Backend::max_pool_backward(const Tensor& x, const Tensor& y, const Tensor& dy, Tensor& dx,
                                const Pool2dGeometry& geometry) {
    const Contract c(*this, "max_pool_backward");
    check_pooling(c, "x", x, "y", y, geometry);
    c.like("dy", dy, "y", y);
    c.like("dx", dx, "x", x);
    do_max_pool_backward(x, y, dy, dx, geometry);
}

void Backend::avg_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) {
    check_pooling(Contract(*this, "avg_pool_forward"), "x", x, "y", y, geometry);
    do_avg_pool_forward(x, y, geometry);
}

void Backend::avg_pool_backward(const Tensor& dy, Tensor& dx, const Pool2dGeometry& geometry) {
    check_pooling(Contract(*this, "avg_pool_backward"), "dx", dx, "dy", dy, geometry);
    do_avg_pool_backward(dy, dx, geometry);
}

void Backend::global_avg_pool_forward(const Tensor& x, Tensor& y) {
    const Contract c(*this, "global_avg_pool_forward");
    c.rank("x", x, 4);
    c.floating("x", x);
    c.require(
        !y.empty() && y.dtype() == x.dtype() && y.shape() == Shape{x.shape()[0], x.shape()[1]}, "y",
        y, [&x] { return std::string(dtype_name(x.dtype())) + " [N x C of x]"; });
    do_global_avg_pool_forward(x, y);
}

void Backend::global_avg_pool_backward(const Tensor& dy, Tensor& dx) {
    const Contract c(*this, "global_avg_pool_backward");
    c.rank("dx", dx, 4);
    c.floating("dx", dx);
    c.require(!dy.empty() && dy.dtype() == dx.dtype() &&
                  dy.shape() == Shape{dx.shape()[0], dx.shape()[1]},
              "dy", dy, [&dx] { return std::string(dtype_name(dx.dtype())) + " [N x C of dx]"; });
    do_global_avg_pool_backward(dy, dx);
}

void Backend::batch_norm_forward_training(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                          Tensor& y, Tensor& running_mean, Tensor& running_var,
                                          Tensor& saved_mean, Tensor& saved_inv_std,
                                          const BatchNormSettings& settings, bool update_running) {
    check_batch_norm(Contract(*this, "batch_norm_forward_training"), x, {{"y", &y}},
                     {{"gamma", &gamma},
                      {"beta", &beta},
                      {"running_mean", &running_mean},
                      {"running_var", &running_var},
                      {"saved_mean", &saved_mean},
                      {"saved_inv_std", &saved_inv_std}});
    do_batch_norm_forward_training(x, gamma, beta, y, running_mean, running_var, saved_mean,
                                   saved_inv_std, settings, update_running);
}

void Backend::batch_norm_forward_inference(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                           const Tensor& running_mean, const Tensor& running_var,
                                           Tensor& y, const BatchNormSettings& settings) {
    check_batch_norm(Contract(*this, "batch_norm_forward_inference"), x, {{"y", &y}},
                     {{"gamma", &gamma},
                      {"beta", &beta},
                      {"running_mean", &running_mean},
                      {"running_var", &running_var}});
    do_batch_norm_forward_inference(x, gamma, beta, running_mean, running_var, y, settings);
}

void Backend::batch_norm_backward(const Tensor& x, const Tensor& dy, const Tensor& gamma,
                                  const Tensor& saved_mean, const Tensor& saved_inv_std, Tensor& dx,
                                  Tensor& dgamma, Tensor& dbeta,
                                  const BatchNormSettings& settings) {
    check_batch_norm(Contract(*this, "batch_norm_backward"), x, {{"dy", &dy}, {"dx", &dx}},
                     {{"gamma", &gamma},
                      {"saved_mean", &saved_mean},
                      {"saved_inv_std", &saved_inv_std},
                      {"dgamma", &dgamma},
                      {"dbeta", &dbeta}});
    do_batch_norm_backward(x, dy, gamma, saved_mean, saved_inv_std, dx, dgamma, dbeta, settings);
}

void Backend::add(const Tensor& a, const Tensor& b, Tensor& y) {
    const Contract c(*this, "add");
    c.floating("a", a);
    c.same_dtype("b", b, "a", a);
    c.elements("b", b, a.elements(), "as a");
    c.same_dtype("y", y, "a", a);
    c.elements("y", y, a.elements(), "as a");
    do_add(a, b, y);
}

namespace {

void check_cross_entropy(const Contract& c, const Tensor& logits, const Tensor& labels,
                         const Tensor& dlogits) {
    c.rank("logits", logits, 2);
    c.floating("logits", logits);
    c.dtype("labels", labels, DType::i32);
    c.elements("labels", labels, logits.shape()[0], "N, the rows of logits");
    if (!dlogits.empty()) {
        c.like("dlogits", dlogits, "logits", logits);
    }
}

}  // namespace

void Backend::softmax_cross_entropy(const Tensor& logits, const Tensor& labels, double loss_scale,
                                    Tensor& dlogits, CrossEntropyTotals& totals) {
    check_cross_entropy(Contract(*this, "softmax_cross_entropy"), logits, labels, dlogits);
    do_softmax_cross_entropy(logits, labels, loss_scale, dlogits, totals);
}

void Backend::softmax_cross_entropy_deferred(const Tensor& logits, const Tensor& labels,
                                             double loss_scale, Tensor& dlogits) {
    check_cross_entropy(Contract(*this, "softmax_cross_entropy_deferred"), logits, labels, dlogits);
    do_softmax_cross_entropy_deferred(logits, labels, loss_scale, dlogits);
}

void Backend::sgd_update(Tensor& parameter, const Tensor& gradient, Tensor& velocity,
                         const SgdSettings& settings, double grad_factor,
                         const Tensor& skip_if_overflow) {
    check_update(Contract(*this, "sgd_update"), parameter, gradient, {{"velocity", &velocity}},
                 skip_if_overflow);
    do_sgd_update(parameter, gradient, velocity, settings, grad_factor, skip_if_overflow);
}

void Backend::adam_update(Tensor& parameter, const Tensor& gradient, Tensor& first_moment,
                          Tensor& second_moment, const AdamSettings& settings, double grad_factor,
                          const Tensor& skip_if_overflow) {
    check_update(Contract(*this, "adam_update"), parameter, gradient,
                 {{"first_moment", &first_moment}, {"second_moment", &second_moment}},
                 skip_if_overflow);
    do_adam_update(parameter, gradient, first_moment, second_moment, settings, grad_factor,
                   skip_if_overflow);
}

void Backend::round_storage(Tensor& tensor, StorageRounding rounding) {
    Contract(*this, "round_storage").dtype("tensor", tensor, DType::f32);
    do_round_storage(tensor, rounding);
}

void Backend::flag_non_finite(const Tensor& tensor, Tensor& overflow) {
    const Contract c(*this, "flag_non_finite");
    c.floating("tensor", tensor);
    c.overflow_flag("overflow", overflow, false);
    do_flag_non_finite(tensor, overflow);
}

}  // namespace trainscope::workloads
