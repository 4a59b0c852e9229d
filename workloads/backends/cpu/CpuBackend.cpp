#include "workloads/backends/cpu/CpuBackend.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "workloads/annotation/NvtxRange.hpp"
#include "workloads/backend/BackendContract.hpp"
#include "workloads/backend/FloatTypeDispatch.hpp"
#include "workloads/backend/GatherLayout.hpp"
#include "workloads/backends/cpu/detail/ConvKernels.hpp"
#include "workloads/backends/cpu/detail/ElementwiseKernels.hpp"
#include "workloads/backends/cpu/detail/GemmKernel.hpp"
#include "workloads/backends/cpu/detail/LossKernels.hpp"
#include "workloads/backends/cpu/detail/NormalizationKernels.hpp"
#include "workloads/backends/cpu/detail/OnednnConvolution.hpp"
#include "workloads/backends/cpu/detail/OptimizerKernels.hpp"
#include "workloads/backends/cpu/detail/PoolingKernels.hpp"

namespace trainscope::workloads {
namespace {

// f16/bf16 never reach this backend: it emulates them in f32 storage.
constexpr const char* kBackend = "cpu backend";

int resolve_threads(int threads) {
    if (threads > 0) {
        return threads;
    }
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void require(bool condition, const char* op, const char* what) {
    if (!condition) {
        throw std::logic_error(std::string("cpu backend: ") + op + ": " + what);
    }
}

std::int64_t spatial(const Tensor& t) {
    return t.shape().rank() == 4 ? t.shape()[2] * t.shape()[3] : 1;
}

std::string cpu_model_name() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                return line.substr(line.find_first_not_of(' ', colon + 1));
            }
        }
    }
    return "unknown";
}

}  // namespace

CpuBackend::CpuBackend(int threads)
    : pool_(resolve_threads(threads)),
      worker_scratch_(static_cast<std::size_t>(pool_.size())),
      onednn_(pool_.size(), &workspace_) {
    // Parallelism comes from this backend's workers; BLAS threads would compete with them.
    openblas_set_num_threads(1);
    for (AlignedBuffer& scratch : worker_scratch_)
        scratch.count_in(&workspace_);
    shared_scratch_.count_in(&workspace_);
    shared_scratch_2_.count_in(&workspace_);
}

bool CpuBackend::emulates(Precision precision) const {
    return policy_for(precision).emulated_on_cpu;
}

DType CpuBackend::storage_dtype(Precision precision) const {
    return policy_for(precision).storage_is_fp64 ? DType::f64 : DType::f32;
}

std::map<std::string, std::string> CpuBackend::environment() const {
    std::map<std::string, std::string> facts{
        {"backend", "cpu"},
        {"cpu_model", cpu_model_name()},
        {"blas", openblas_get_config()},
        {"blas_threads_per_call", "1"},
        {"threads", std::to_string(pool_.size())},
        {"hardware_threads", std::to_string(std::thread::hardware_concurrency())},
        {"onednn", cpu::OnednnConvolutions::version()},
        {"cpu_convolution", "fp32: oneDNN direct kernels; fp64 and tf32: im2col + OpenBLAS GEMM"},
    };
    // How idle OpenMP workers wait decides how the run copes with other load on its cores.
    const char* wait_policy = std::getenv("OMP_WAIT_POLICY");
    facts.emplace("omp_wait_policy", wait_policy != nullptr ? wait_policy : "default");
    if (const char* spin = std::getenv("GOMP_SPINCOUNT"); spin != nullptr) {
        facts.emplace("gomp_spincount", spin);
    }
    // Which oneDNN kernel ran each convolution shape of this run (jit:avx512_core, ...).
    if (std::string kernels = onednn_.implementations(); !kernels.empty()) {
        facts.emplace("onednn_kernels", std::move(kernels));
    }
    return facts;
}

// oneDNN has no fp64 convolution and does not round inputs the way this backend's tf32
// emulation does, so those keep the im2col path. So do the forward and backward-data
// passes of convolutions over fewer than 8 input channels (a first layer on grey images):
// oneDNN's blocked kernels vectorise over channels, and there the reorders cost more than
// the small im2col GEMM (single-threaded, 64x1x28x28 -> 32 channels: forward 0.69 ms vs
// 0.50 ms, backward-data 6.3 ms vs 0.64 ms; backward-filter wins, 0.59 ms vs 1.97 ms).
bool CpuBackend::uses_onednn(const Tensor& x, std::int64_t input_channels,
                             ConvolutionPass pass) const {
    if (x.dtype() != DType::f32 || math_ != MathMode::native) {
        return false;
    }
    constexpr std::int64_t kMinChannels = 8;
    return pass == ConvolutionPass::backward_filter || input_channels >= kMinChannels;
}

void CpuBackend::do_copy_from_host(const void* host, Tensor& destination) {
    OpRange range("copy_h2d", copy_cost(destination, destination));
    std::memcpy(destination.raw(), host, destination.bytes());
}

void CpuBackend::do_copy_to_host(const Tensor& source, void* host) {
    OpRange range("copy_d2h", copy_cost(source, source));
    std::memcpy(host, source.raw(), source.bytes());
}

void CpuBackend::do_copy(const Tensor& source, Tensor& destination) {
    OpRange range("copy", copy_cost(source, destination));
    std::memcpy(destination.raw(), source.raw(), source.bytes());
}

void CpuBackend::do_gather_rows(const Tensor& source, const Tensor& indices, Tensor& destination) {
    OpRange range("gather_rows", copy_cost(destination, destination));
    const GatherLayout layout = gather_layout(source, indices, destination);
    const auto* from = static_cast<const unsigned char*>(source.raw());
    auto* to = static_cast<unsigned char*>(destination.raw());
    const std::int32_t* rows = indices.data<std::int32_t>();
    for (std::int64_t r = 0; r < layout.rows; ++r) {
        require(rows[r] >= 0 && rows[r] < layout.source_rows, "gather_rows", "index out of range");
        std::memcpy(to + static_cast<std::size_t>(r) * layout.row_bytes,
                    from + static_cast<std::size_t>(rows[r]) * layout.row_bytes, layout.row_bytes);
    }
}

void CpuBackend::do_fill(Tensor& tensor, double value) {
    OpRange range("fill", fill_cost(tensor));
    if (tensor.dtype() == DType::i32) {
        std::fill_n(tensor.data<std::int32_t>(), tensor.elements(),
                    static_cast<std::int32_t>(value));
        return;
    }
    with_float_type(tensor.dtype(), kBackend, "fill", [&](auto zero) {
        using T = decltype(zero);
        std::fill_n(tensor.data<T>(), tensor.elements(), static_cast<T>(value));
    });
}

void CpuBackend::do_convert(const Tensor& source, Tensor& destination) {
    OpRange range("convert", copy_cost(source, destination));
    with_float_type(source.dtype(), kBackend, "convert", [&](auto from_zero) {
        using From = decltype(from_zero);
        with_float_type(destination.dtype(), kBackend, "convert", [&](auto to_zero) {
            using To = decltype(to_zero);
            std::transform(source.data<From>(), source.data<From>() + source.elements(),
                           destination.data<To>(), [](From v) { return static_cast<To>(v); });
        });
    });
}

namespace {

cpu::ConvDims conv_dims(const Tensor& x, const Tensor& w, const Tensor& y,
                        const Conv2dGeometry& g) {
    const Shape& xs = x.shape();
    const Shape& ws = w.shape();
    const Shape& ys = y.shape();
    return {xs[0], xs[1], xs[2], xs[3], ws[0], ws[2], ws[3], ys[2], ys[3], g.stride, g.padding};
}

cpu::PoolDims pool_dims(const Tensor& x, const Tensor& y, const Pool2dGeometry& g) {
    const Shape& xs = x.shape();
    const Shape& ys = y.shape();
    return {xs[0], xs[1], xs[2], xs[3], ys[2], ys[3], g.window, g.stride, g.padding};
}

}  // namespace

cpu::KernelContext CpuBackend::kernel_context() {
    return cpu::KernelContext{pool_, worker_scratch_, shared_scratch_, shared_scratch_2_, math_};
}

void CpuBackend::do_conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& bias, Tensor& y,
                                   const Conv2dGeometry& geometry) {
    OpRange range("conv_fwd", conv2d_forward_cost(x, w, bias, y));
    const WorkspaceScope op_workspace(workspace_);
    cpu::KernelContext context = kernel_context();
    const cpu::ConvDims dims = conv_dims(x, w, y, geometry);
    if (uses_onednn(x, dims.c, ConvolutionPass::forward)) {
        onednn_.forward(dims, x.data<float>(), w.data<float>(),
                        bias.empty() ? nullptr : bias.data<float>(), y.data<float>());
        return;
    }
    with_float_type(x.dtype(), kBackend, "conv2d_forward", [&](auto zero) {
        using T = decltype(zero);
        cpu::conv_forward<T>(context, dims, x.data<T>(), w.data<T>(),
                             bias.empty() ? nullptr : bias.data<T>(), y.data<T>());
    });
}

void CpuBackend::do_conv2d_backward_data(const Tensor& dy, const Tensor& w, Tensor& dx,
                                         const Conv2dGeometry& geometry) {
    OpRange range("conv_bwd_data", conv2d_backward_data_cost(dy, w, dx));
    const WorkspaceScope op_workspace(workspace_);
    cpu::KernelContext context = kernel_context();
    const cpu::ConvDims dims = conv_dims(dx, w, dy, geometry);
    if (uses_onednn(dy, dims.c, ConvolutionPass::backward_data)) {
        onednn_.backward_data(dims, dy.data<float>(), w.data<float>(), dx.data<float>());
        return;
    }
    with_float_type(dy.dtype(), kBackend, "conv2d_backward_data", [&](auto zero) {
        using T = decltype(zero);
        cpu::conv_backward_data<T>(context, dims, dy.data<T>(), w.data<T>(), dx.data<T>());
    });
}

void CpuBackend::do_conv2d_backward_filter(const Tensor& x, const Tensor& dy, Tensor& dw,
                                           Tensor& dbias, const Conv2dGeometry& geometry) {
    OpRange range("conv_bwd_filter", conv2d_backward_filter_cost(x, dy, dw, dbias));
    const WorkspaceScope op_workspace(workspace_);
    cpu::KernelContext context = kernel_context();
    const cpu::ConvDims dims = conv_dims(x, dw, dy, geometry);
    if (uses_onednn(x, dims.c, ConvolutionPass::backward_filter)) {
        onednn_.backward_filter(dims, x.data<float>(), dy.data<float>(), dw.data<float>(),
                                dbias.empty() ? nullptr : dbias.data<float>());
        return;
    }
    with_float_type(x.dtype(), kBackend, "conv2d_backward_filter", [&](auto zero) {
        using T = decltype(zero);
        cpu::conv_backward_filter<T>(context, dims, x.data<T>(), dy.data<T>(), dw.data<T>(),
                                     dbias.empty() ? nullptr : dbias.data<T>());
    });
}

void CpuBackend::do_gemm(bool transpose_a, bool transpose_b, double alpha, const Tensor& a,
                         const Tensor& b, double beta, Tensor& c) {
    OpRange range("gemm", gemm_cost(transpose_a, transpose_b, a, b, beta, c));
    const WorkspaceScope op_workspace(workspace_);
    cpu::KernelContext context = kernel_context();
    const GemmDims d = gemm_dims(transpose_a, transpose_b, a, b);
    with_float_type(a.dtype(), kBackend, "gemm", [&](auto zero) {
        using T = decltype(zero);
        cpu::gemm<T>(context, transpose_a, transpose_b, d.m, d.n, d.k, static_cast<T>(alpha),
                     a.data<T>(), b.data<T>(), static_cast<T>(beta), c.data<T>());
    });
}

void CpuBackend::do_add_bias(Tensor& y, const Tensor& bias) {
    OpRange range("add_bias", add_bias_cost(y, bias));
    cpu::KernelContext context = kernel_context();
    with_float_type(y.dtype(), kBackend, "add_bias", [&](auto zero) {
        using T = decltype(zero);
        cpu::add_bias<T>(context, y.shape()[0], y.shape()[1], spatial(y), y.data<T>(),
                         bias.data<T>());
    });
}

void CpuBackend::do_bias_backward(const Tensor& dy, Tensor& dbias) {
    OpRange range("bias_bwd", bias_backward_cost(dy, dbias));
    cpu::KernelContext context = kernel_context();
    with_float_type(dy.dtype(), kBackend, "bias_backward", [&](auto zero) {
        using T = decltype(zero);
        cpu::bias_backward<T>(context, dy.shape()[0], dy.shape()[1], spatial(dy), dy.data<T>(),
                              dbias.data<T>());
    });
}

void CpuBackend::do_relu_forward(const Tensor& x, Tensor& y) {
    OpRange range("relu_fwd", relu_forward_cost(x, y));
    cpu::KernelContext context = kernel_context();
    with_float_type(x.dtype(), kBackend, "relu_forward", [&](auto zero) {
        using T = decltype(zero);
        cpu::relu_forward<T>(context, x.elements(), x.data<T>(), y.data<T>());
    });
}

void CpuBackend::do_relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx) {
    OpRange range("relu_bwd", relu_backward_cost(y, dy, dx));
    cpu::KernelContext context = kernel_context();
    with_float_type(y.dtype(), kBackend, "relu_backward", [&](auto zero) {
        using T = decltype(zero);
        cpu::relu_backward<T>(context, y.elements(), y.data<T>(), dy.data<T>(), dx.data<T>());
    });
}

void CpuBackend::do_max_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) {
    OpRange range("max_pool_fwd", max_pool_forward_cost(x, y, geometry));
    cpu::KernelContext context = kernel_context();
    const cpu::PoolDims dims = pool_dims(x, y, geometry);
    with_float_type(x.dtype(), kBackend, "max_pool_forward", [&](auto zero) {
        using T = decltype(zero);
        cpu::max_pool_forward<T>(context, dims, x.data<T>(), y.data<T>());
    });
}

void CpuBackend::do_max_pool_backward(const Tensor& x,
                                      const Tensor& y /* rescans x; y counts in the op's bytes */,
                                      const Tensor& dy, Tensor& dx,
                                      const Pool2dGeometry& geometry) {
    OpRange range("max_pool_bwd", max_pool_backward_cost(x, y, dy, dx, geometry));
    cpu::KernelContext context = kernel_context();
    const cpu::PoolDims dims = pool_dims(x, dy, geometry);
    with_float_type(x.dtype(), kBackend, "max_pool_backward", [&](auto zero) {
        using T = decltype(zero);
        cpu::max_pool_backward<T>(context, dims, x.data<T>(), dy.data<T>(), dx.data<T>());
    });
}

void CpuBackend::do_avg_pool_forward(const Tensor& x, Tensor& y, const Pool2dGeometry& geometry) {
    OpRange range("avg_pool_fwd", avg_pool_forward_cost(x, y, geometry));
    cpu::KernelContext context = kernel_context();
    const cpu::PoolDims dims = pool_dims(x, y, geometry);
    with_float_type(x.dtype(), kBackend, "avg_pool_forward", [&](auto zero) {
        using T = decltype(zero);
        cpu::avg_pool_forward<T>(context, dims, x.data<T>(), y.data<T>());
    });
}

void CpuBackend::do_avg_pool_backward(const Tensor& dy, Tensor& dx,
                                      const Pool2dGeometry& geometry) {
    OpRange range("avg_pool_bwd", avg_pool_backward_cost(dy, dx, geometry));
    cpu::KernelContext context = kernel_context();
    const cpu::PoolDims dims = pool_dims(dx, dy, geometry);
    with_float_type(dy.dtype(), kBackend, "avg_pool_backward", [&](auto zero) {
        using T = decltype(zero);
        cpu::avg_pool_backward<T>(context, dims, dy.data<T>(), dx.data<T>());
    });
}

void CpuBackend::do_global_avg_pool_forward(const Tensor& x, Tensor& y) {
    OpRange range("global_avg_pool_fwd", global_avg_pool_forward_cost(x, y));
    cpu::KernelContext context = kernel_context();
    with_float_type(x.dtype(), kBackend, "global_avg_pool_forward", [&](auto zero) {
        using T = decltype(zero);
        cpu::global_avg_pool_forward<T>(context, x.shape()[0] * x.shape()[1], spatial(x),
                                        x.data<T>(), y.data<T>());
    });
}

void CpuBackend::do_global_avg_pool_backward(const Tensor& dy, Tensor& dx) {
    OpRange range("global_avg_pool_bwd", global_avg_pool_backward_cost(dy, dx));
    cpu::KernelContext context = kernel_context();
    with_float_type(dy.dtype(), kBackend, "global_avg_pool_backward", [&](auto zero) {
        using T = decltype(zero);
        cpu::global_avg_pool_backward<T>(context, dx.shape()[0] * dx.shape()[1], spatial(dx),
                                         dy.data<T>(), dx.data<T>());
    });
}

void CpuBackend::do_batch_norm_forward_training(const Tensor& x, const Tensor& gamma,
                                                const Tensor& beta, Tensor& y, Tensor& running_mean,
                                                Tensor& running_var, Tensor& saved_mean,
                                                Tensor& saved_inv_std,
                                                const BatchNormSettings& settings,
                                                bool update_running) {
    OpRange range("batch_norm_fwd_train",
                  batch_norm_forward_training_cost(x, y, gamma, update_running));
    cpu::KernelContext context = kernel_context();
    const cpu::NormDims dims{x.shape()[0], x.shape()[1], spatial(x)};
    with_float_type(x.dtype(), kBackend, "batch_norm_forward_training", [&](auto zero) {
        using T = decltype(zero);
        cpu::batch_norm_forward_training<T>(context, dims, x.data<T>(), gamma.data<T>(),
                                            beta.data<T>(), y.data<T>(), running_mean.data<T>(),
                                            running_var.data<T>(), saved_mean.data<T>(),
                                            saved_inv_std.data<T>(), settings, update_running);
    });
}

void CpuBackend::do_batch_norm_forward_inference(const Tensor& x, const Tensor& gamma,
                                                 const Tensor& beta, const Tensor& running_mean,
                                                 const Tensor& running_var, Tensor& y,
                                                 const BatchNormSettings& settings) {
    OpRange range("batch_norm_fwd_infer", batch_norm_forward_inference_cost(x, y, gamma));
    cpu::KernelContext context = kernel_context();
    const cpu::NormDims dims{x.shape()[0], x.shape()[1], spatial(x)};
    with_float_type(x.dtype(), kBackend, "batch_norm_forward_inference", [&](auto zero) {
        using T = decltype(zero);
        cpu::batch_norm_forward_inference<T>(context, dims, x.data<T>(), gamma.data<T>(),
                                             beta.data<T>(), running_mean.data<T>(),
                                             running_var.data<T>(), y.data<T>(), settings);
    });
}

void CpuBackend::do_batch_norm_backward(const Tensor& x, const Tensor& dy, const Tensor& gamma,
                                        const Tensor& saved_mean, const Tensor& saved_inv_std,
                                        Tensor& dx, Tensor& dgamma, Tensor& dbeta,
                                        const BatchNormSettings&) {
    OpRange range("batch_norm_bwd", batch_norm_backward_cost(x, dy, dx, gamma));
    cpu::KernelContext context = kernel_context();
    const cpu::NormDims dims{x.shape()[0], x.shape()[1], spatial(x)};
    with_float_type(x.dtype(), kBackend, "batch_norm_backward", [&](auto zero) {
        using T = decltype(zero);
        cpu::batch_norm_backward<T>(context, dims, x.data<T>(), dy.data<T>(), gamma.data<T>(),
                                    saved_mean.data<T>(), saved_inv_std.data<T>(), dx.data<T>(),
                                    dgamma.data<T>(), dbeta.data<T>());
    });
}

void CpuBackend::do_add(const Tensor& a, const Tensor& b, Tensor& y) {
    OpRange range("add", add_cost(a, b, y));
    cpu::KernelContext context = kernel_context();
    with_float_type(a.dtype(), kBackend, "add", [&](auto zero) {
        using T = decltype(zero);
        cpu::add<T>(context, a.elements(), a.data<T>(), b.data<T>(), y.data<T>());
    });
}

void CpuBackend::do_softmax_cross_entropy(const Tensor& logits, const Tensor& labels,
                                          double loss_scale, Tensor& dlogits,
                                          CrossEntropyTotals& totals) {
    OpRange range("softmax_cross_entropy", softmax_cross_entropy_cost(logits, labels, dlogits));
    with_float_type(logits.dtype(), kBackend, "softmax_cross_entropy", [&](auto zero) {
        using T = decltype(zero);
        cpu::softmax_cross_entropy<T>(logits.shape()[0], logits.shape().inner_elements(),
                                      logits.data<T>(), labels.data<std::int32_t>(), loss_scale,
                                      dlogits.empty() ? nullptr : dlogits.data<T>(), totals);
    });
}

void CpuBackend::do_softmax_cross_entropy_deferred(const Tensor& logits, const Tensor& labels,
                                                   double loss_scale, Tensor& dlogits) {
    softmax_cross_entropy(logits, labels, loss_scale, dlogits, deferred_totals_);
}

CrossEntropyTotals CpuBackend::take_loss_totals() {
    return std::exchange(deferred_totals_, CrossEntropyTotals{});
}

namespace {

// Backend checked the flag: empty or f32 [1].
bool update_skipped(const Tensor& skip_if_overflow) {
    if (skip_if_overflow.empty()) {
        return false;
    }
    return skip_if_overflow.data<float>()[0] != 0.0f;
}

}  // namespace

void CpuBackend::do_sgd_update(Tensor& parameter, const Tensor& gradient, Tensor& velocity,
                               const SgdSettings& settings, double grad_factor,
                               const Tensor& skip_if_overflow) {
    OpRange range("sgd_update", sgd_update_cost(parameter, gradient, velocity, settings));
    if (update_skipped(skip_if_overflow)) {
        return;
    }
    cpu::KernelContext context = kernel_context();
    with_float_type(parameter.dtype(), kBackend, "sgd_update", [&](auto zero) {
        using T = decltype(zero);
        cpu::sgd_update<T>(context, parameter.elements(), parameter.data<T>(), gradient.data<T>(),
                           velocity.data<T>(), settings, grad_factor);
    });
}

void CpuBackend::do_adam_update(Tensor& parameter, const Tensor& gradient, Tensor& first_moment,
                                Tensor& second_moment, const AdamSettings& settings,
                                double grad_factor, const Tensor& skip_if_overflow) {
    OpRange range("adam_update",
                  adam_update_cost(parameter, gradient, first_moment, second_moment));
    if (update_skipped(skip_if_overflow)) {
        return;
    }
    cpu::KernelContext context = kernel_context();
    with_float_type(parameter.dtype(), kBackend, "adam_update", [&](auto zero) {
        using T = decltype(zero);
        cpu::adam_update<T>(context, parameter.elements(), parameter.data<T>(), gradient.data<T>(),
                            first_moment.data<T>(), second_moment.data<T>(), settings, grad_factor);
    });
}

void CpuBackend::do_round_storage(Tensor& tensor, StorageRounding rounding) {
    OpRange range("round_storage", round_storage_cost(tensor));
    cpu::KernelContext context = kernel_context();
    cpu::round_storage(context, tensor.elements(), tensor.data<float>(), rounding);
}

void CpuBackend::do_flag_non_finite(const Tensor& tensor, Tensor& overflow) {
    OpRange range("flag_non_finite", flag_non_finite_cost(tensor));
    cpu::KernelContext context = kernel_context();
    bool finite = true;
    with_float_type(tensor.dtype(), kBackend, "flag_non_finite", [&](auto zero) {
        using T = decltype(zero);
        finite = cpu::all_finite<T>(context, tensor.elements(), tensor.data<T>());
    });
    if (!finite) {
        overflow.data<float>()[0] = 1.0f;
    }
}

}  // namespace trainscope::workloads
