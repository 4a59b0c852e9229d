// CudaBackend's optimizer updates, the overflow flag they read, and the emulation's
// rounding: the per-step parameter work, apart from the layer operations.
#include <cstddef>
#include <type_traits>

#include "workloads/annotation/NvtxRange.hpp"
#include "workloads/backend/FloatTypeDispatch.hpp"
#include "workloads/backends/cuda/CudaBackend.hpp"
#include "workloads/backends/cuda/StorageTypeDispatch.hpp"
#include "workloads/backends/cuda/TensorProblems.hpp"
#include "workloads/backends/cuda/kernels/CapturedOptimizerKernels.hpp"
#include "workloads/backends/cuda/kernels/ElementwiseKernels.hpp"
#include "workloads/backends/cuda/kernels/OptimizerKernels.hpp"

namespace trainscope::workloads {
namespace {

using cuda::kBackend;
using cuda::require;
using cuda::with_storage_type;

}  // namespace

namespace {

// Runs body(T{}, G{}) for a master parameter of type T (float, double) and its gradient's
// storage type G: the same as T, or fp16/bf16 next to a float master.
template <typename Body>
void with_master_and_gradient(const Tensor& parameter, const Tensor& gradient, const char* op,
                              const Body& body) {
    with_float_type(parameter.dtype(), kBackend, op, [&](auto master_zero) {
        using T = decltype(master_zero);
        with_storage_type(gradient, op, [&](auto gradient_zero) {
            using G = decltype(gradient_zero);
            constexpr bool kValid = std::is_same_v<T, double> == std::is_same_v<G, double>;
            if constexpr (kValid) {
                body(master_zero, gradient_zero);
            } else {
                require(false, op, "the gradient's element type does not fit the master's");
            }
        });
    });
}

}  // namespace

namespace {

// The device address of an update's skip flag (Backend::sgd_update; Backend checked it),
// or null.
const float* skip_flag(const Tensor& skip_if_overflow) {
    if (skip_if_overflow.empty()) {
        return nullptr;
    }
    return skip_if_overflow.data<float>();
}

}  // namespace

void CudaBackend::do_sgd_update(Tensor& parameter, const Tensor& gradient, Tensor& velocity,
                                const SgdSettings& settings, double grad_factor,
                                const Tensor& skip_if_overflow) {
    OpRange range("sgd_update", sgd_update_cost(parameter, gradient, velocity, settings));
    with_master_and_gradient(
        parameter, gradient, "sgd_update", [&](auto master_zero, auto gradient_zero) {
            using T = decltype(master_zero);
            using G = decltype(gradient_zero);
            cuda::kernels::sgd_update<T, G>(stream(), parameter.elements(),
                                            cuda::math::sgd_constants<T>(settings, grad_factor),
                                            parameter.data<T>(), gradient.data<G>(),
                                            velocity.data<T>(), skip_flag(skip_if_overflow));
        });
}

void CudaBackend::do_adam_update(Tensor& parameter, const Tensor& gradient, Tensor& first_moment,
                                 Tensor& second_moment, const AdamSettings& settings,
                                 double grad_factor, const Tensor& skip_if_overflow) {
    OpRange range("adam_update",
                  adam_update_cost(parameter, gradient, first_moment, second_moment));
    const float* skip = skip_flag(skip_if_overflow);
    with_master_and_gradient(
        parameter, gradient, "adam_update", [&](auto master_zero, auto gradient_zero) {
            using T = decltype(master_zero);
            using G = decltype(gradient_zero);
            if (graph_ && graph_->capturing()) {
                // Bias correction changes every step: read from the block each launch
                // refreshes.
                cuda::kernels::adam_update_device_constants<T, G>(
                    stream(), parameter.elements(),
                    graph_->adam_constants<T>(settings, grad_factor), parameter.data<T>(),
                    gradient.data<G>(), first_moment.data<T>(), second_moment.data<T>(), skip);
                return;
            }
            cuda::kernels::adam_update<T, G>(stream(), parameter.elements(),
                                             cuda::math::adam_constants<T>(settings, grad_factor),
                                             parameter.data<T>(), gradient.data<G>(),
                                             first_moment.data<T>(), second_moment.data<T>(), skip);
        });
}

void CudaBackend::do_round_storage(Tensor& tensor, StorageRounding rounding) {
    OpRange range("round_storage", round_storage_cost(tensor));
    cuda::kernels::round_storage(stream(), tensor.elements(), tensor.data<float>(), rounding);
}

void CudaBackend::do_flag_non_finite(const Tensor& tensor, Tensor& overflow) {
    OpRange range("flag_non_finite", flag_non_finite_cost(tensor));
    with_storage_type(tensor, "flag_non_finite", [&](auto zero) {
        using T = decltype(zero);
        cuda::kernels::flag_non_finite<T>(stream(), tensor.elements(), tensor.data<T>(),
                                          overflow.data<float>());
    });
}

}  // namespace trainscope::workloads
