// CudaBackend's batch normalization: cuDNN for fp32, fp64 and fp16, the own kernels for
// bf16 (as PyTorch routes it), and the scratch a recompute pass blends into.
#include <cstddef>
#include <type_traits>

#include "workloads/annotation/NvtxRange.hpp"
#include "workloads/backends/cuda/CudaBackend.hpp"
#include "workloads/backends/cuda/StorageTypeDispatch.hpp"
#include "workloads/backends/cuda/TensorProblems.hpp"
#include "workloads/backends/cuda/kernels/BatchNormKernels.hpp"

namespace trainscope::workloads {
namespace {

using cuda::batch_norm_problem;
using cuda::batch_norm_uses_own_kernels;
using cuda::own_batch_norm_shape;
using cuda::require;
using cuda::with_storage_type;

// Runs body with the storage type the own batch-norm kernels are built for (float, fp16,
// bf16); f64 stays with cuDNN.
template <typename Body>
void with_own_batch_norm_type(const Tensor& x, const char* op, const Body& body) {
    with_storage_type(x, op, [&](auto zero) {
        using S = decltype(zero);
        if constexpr (std::is_same_v<S, double>) {
            require(false, op, "the own batch-norm kernels have no f64 version");
        } else {
            body(zero);
        }
    });
}

}  // namespace

void* CudaBackend::batch_norm_workspace(const cuda::kernels::BatchNormShape& shape) {
    return reduction_workspace_.reserve(cuda::kernels::batch_norm_workspace_bytes(shape), stream());
}

void CudaBackend::do_batch_norm_forward_training(const Tensor& x, const Tensor& gamma,
                                                 const Tensor& beta, Tensor& y,
                                                 Tensor& running_mean, Tensor& running_var,
                                                 Tensor& saved_mean, Tensor& saved_inv_std,
                                                 const BatchNormSettings& settings,
                                                 bool update_running) {
    OpRange range("batch_norm_fwd_train",
                  batch_norm_forward_training_cost(x, y, gamma, update_running));
    const WorkspaceScope op_workspace(op_workspace_);
    if (batch_norm_uses_own_kernels(x.dtype())) {
        // Our kernels blend only when asked: nothing to discard while recomputing.
        const cuda::kernels::BatchNormShape shape = own_batch_norm_shape(
            x, {&y}, {&gamma, &beta, &running_mean, &running_var, &saved_mean, &saved_inv_std});
        with_own_batch_norm_type(x, "batch_norm_forward_training", [&](auto zero) {
            using S = decltype(zero);
            cuda::kernels::batch_norm_forward_training<S>(
                stream(), shape, x.data<S>(), gamma.data<float>(), beta.data<float>(), y.data<S>(),
                running_mean.data<float>(), running_var.data<float>(), saved_mean.data<float>(),
                saved_inv_std.data<float>(), settings, update_running, batch_norm_workspace(shape));
        });
        return;
    }
    void* mean_out = running_mean.raw();
    void* var_out = running_var.raw();
    if (!update_running) {
        // cuDNN always blends into the running statistics; while recomputing they must not
        // change, so it blends into scratch that is thrown away.
        std::byte* scratch = static_cast<std::byte*>(
            discarded_running_stats_.reserve(running_mean.bytes() + running_var.bytes(), stream()));
        mean_out = scratch;
        var_out = scratch + running_mean.bytes();
    }
    cuda::cudnn_batch_norm_forward_training(
        cudnn_.get(), batch_norm_descriptors_, batch_norm_problem(x, gamma), x.raw(), gamma.raw(),
        beta.raw(), y.raw(), settings.momentum, mean_out, var_out, settings.epsilon,
        saved_mean.raw(), saved_inv_std.raw());
}

void CudaBackend::do_batch_norm_forward_inference(const Tensor& x, const Tensor& gamma,
                                                  const Tensor& beta, const Tensor& running_mean,
                                                  const Tensor& running_var, Tensor& y,
                                                  const BatchNormSettings& settings) {
    OpRange range("batch_norm_fwd_infer", batch_norm_forward_inference_cost(x, y, gamma));
    const WorkspaceScope op_workspace(op_workspace_);
    if (batch_norm_uses_own_kernels(x.dtype())) {
        const cuda::kernels::BatchNormShape shape =
            own_batch_norm_shape(x, {&y}, {&gamma, &beta, &running_mean, &running_var});
        with_own_batch_norm_type(x, "batch_norm_forward_inference", [&](auto zero) {
            using S = decltype(zero);
            cuda::kernels::batch_norm_forward_inference<S>(
                stream(), shape, x.data<S>(), gamma.data<float>(), beta.data<float>(),
                running_mean.data<float>(), running_var.data<float>(), y.data<S>(), settings,
                batch_norm_workspace(shape));
        });
        return;
    }
    cuda::cudnn_batch_norm_forward_inference(
        cudnn_.get(), batch_norm_descriptors_, batch_norm_problem(x, gamma), x.raw(), gamma.raw(),
        beta.raw(), running_mean.raw(), running_var.raw(), y.raw(), settings.epsilon);
}

void CudaBackend::do_batch_norm_backward(const Tensor& x, const Tensor& dy, const Tensor& gamma,
                                         const Tensor& saved_mean, const Tensor& saved_inv_std,
                                         Tensor& dx, Tensor& dgamma, Tensor& dbeta,
                                         const BatchNormSettings& settings) {
    OpRange range("batch_norm_bwd", batch_norm_backward_cost(x, dy, dx, gamma));
    const WorkspaceScope op_workspace(op_workspace_);
    if (batch_norm_uses_own_kernels(x.dtype())) {
        const cuda::kernels::BatchNormShape shape = own_batch_norm_shape(
            x, {&dy, &dx}, {&gamma, &saved_mean, &saved_inv_std, &dgamma, &dbeta});
        with_own_batch_norm_type(x, "batch_norm_backward", [&](auto zero) {
            using S = decltype(zero);
            cuda::kernels::batch_norm_backward<S>(
                stream(), shape, x.data<S>(), dy.data<S>(), gamma.data<float>(),
                saved_mean.data<float>(), saved_inv_std.data<float>(), dx.data<S>(),
                dgamma.data<float>(), dbeta.data<float>(), batch_norm_workspace(shape));
        });
        return;
    }
    // cuDNN: "the same epsilon value should be used in forward and backward functions".
    cuda::cudnn_batch_norm_backward(cudnn_.get(), batch_norm_descriptors_,
                                    batch_norm_problem(x, gamma), x.raw(), dy.raw(), gamma.raw(),
                                    dx.raw(), dgamma.raw(), dbeta.raw(), settings.epsilon,
                                    saved_mean.raw(), saved_inv_std.raw());
}

}  // namespace trainscope::workloads
