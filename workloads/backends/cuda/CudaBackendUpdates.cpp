// CudaBackend's optimizer updates, the overflow flag they read, and the emulation's
// rounding: the per-step parameter work, apart from the layer operations.
#include <array>
#include <cstddef>
#include <span>
#include <type_traits>

#include "workloads/annotation/NvtxRange.hpp"
#include "workloads/backend/FloatTypeDispatch.hpp"
#include "workloads/backends/cuda/CudaBackend.hpp"
#include "workloads/backends/cuda/StorageTypeDispatch.hpp"
#include "workloads/backends/cuda/TensorProblems.hpp"
#include "workloads/backends/cuda/kernels/CapturedOptimizerKernels.hpp"
#include "workloads/backends/cuda/kernels/ElementwiseKernels.hpp"
#include "workloads/backends/cuda/kernels/MultiTensorKernels.hpp"
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

// The device address of an update's skip flag (Backend::sgd_update), or null.
const float* skip_flag(const Tensor& skip_if_overflow, const char* op) {
    if (skip_if_overflow.empty()) {
        return nullptr;
    }
    require(skip_if_overflow.dtype() == DType::f32 && skip_if_overflow.elements() == 1, op,
            "the overflow flag must be an f32 tensor of one element");
    return skip_if_overflow.data<float>();
}

}  // namespace

void CudaBackend::sgd_update(Tensor& parameter, const Tensor& gradient, Tensor& velocity,
                             const SgdSettings& settings, double grad_factor,
                             const Tensor& skip_if_overflow) {
    OpRange range("sgd_update");
    require(velocity.dtype() == parameter.dtype(), "sgd_update",
            "velocity must be the master's type");
    with_master_and_gradient(
        parameter, gradient, "sgd_update", [&](auto master_zero, auto gradient_zero) {
            using T = decltype(master_zero);
            using G = decltype(gradient_zero);
            cuda::kernels::sgd_update<T, G>(
                stream(), parameter.elements(), cuda::math::sgd_constants<T>(settings, grad_factor),
                parameter.data<T>(), gradient.data<G>(), velocity.data<T>(),
                skip_flag(skip_if_overflow, "sgd_update"));
        });
}

void CudaBackend::adam_update(Tensor& parameter, const Tensor& gradient, Tensor& first_moment,
                              Tensor& second_moment, const AdamSettings& settings,
                              double grad_factor, const Tensor& skip_if_overflow) {
    OpRange range("adam_update");
    require(first_moment.dtype() == parameter.dtype() && second_moment.dtype() == parameter.dtype(),
            "adam_update", "moments must be the master's type");
    const float* skip = skip_flag(skip_if_overflow, "adam_update");
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

void CudaBackend::round_storage(Tensor& tensor, StorageRounding rounding) {
    OpRange range("round_storage");
    require(tensor.dtype() == DType::f32, "round_storage", "emulated storage is f32");
    cuda::kernels::round_storage(stream(), tensor.elements(), tensor.data<float>(), rounding);
}

void CudaBackend::flag_non_finite(const Tensor& tensor, Tensor& overflow) {
    OpRange range("flag_non_finite");
    require(overflow.dtype() == DType::f32 && overflow.elements() == 1, "flag_non_finite",
            "the overflow flag must be an f32 tensor of one element");
    with_storage_type(tensor, "flag_non_finite", [&](auto zero) {
        using T = decltype(zero);
        cuda::kernels::flag_non_finite<T>(stream(), tensor.elements(), tensor.data<T>(),
                                          overflow.data<float>());
    });
}

namespace {

using cuda::kernels::TensorList;

// Every position of a list holds tensors of the first position's dtypes and one element
// count: what a single kernel instantiation over the whole list needs.
template <std::size_t Depth>
void require_uniform(const std::array<const Tensor*, Depth>& first,
                     const std::array<const Tensor*, Depth>& tensors, const char* op) {
    for (std::size_t d = 0; d < Depth; ++d) {
        require(tensors[d]->dtype() == first[d]->dtype(), op,
                "the tensors of one list position differ in dtype");
        require(tensors[d]->elements() == tensors[0]->elements(), op,
                "a list position's tensors differ in element count");
    }
}

// Fills TensorLists with the tensors tensors_at(i) (i < count; the first Depth-array
// gives the dtypes every position must share) and launches each full list and the last.
template <int Depth, typename TensorsAt, typename Launch>
void launch_lists(std::size_t count, const TensorsAt& tensors_at, const char* op,
                  const Launch& launch) {
    const std::array<const Tensor*, Depth> first = tensors_at(0);
    TensorList<Depth> list;
    for (std::size_t i = 0; i < count; ++i) {
        const std::array<const Tensor*, Depth> tensors = tensors_at(i);
        require_uniform<Depth>(first, tensors, op);
        void* addresses[Depth];
        for (int d = 0; d < Depth; ++d) {
            addresses[d] = tensors[static_cast<std::size_t>(d)]->raw();
        }
        if (!list.append(addresses, tensors[0]->elements())) {
            launch(list);
            list.clear();
            list.append(addresses, tensors[0]->elements());
        }
    }
    launch(list);
}

void require_lengths(std::size_t expected, std::size_t actual, const char* op) {
    require(expected == actual, op, "tensor lists of unequal length");
}

}  // namespace

void CudaBackend::sgd_update_multi(std::span<Tensor* const> parameters,
                                   std::span<const Tensor* const> gradients,
                                   std::span<Tensor* const> velocities, const SgdSettings& settings,
                                   double grad_factor, const Tensor& skip_if_overflow) {
    OpRange range("sgd_update_multi");
    require_lengths(parameters.size(), gradients.size(), "sgd_update_multi");
    require_lengths(parameters.size(), velocities.size(), "sgd_update_multi");
    if (parameters.empty()) {
        return;
    }
    require(velocities[0]->dtype() == parameters[0]->dtype(), "sgd_update_multi",
            "velocity must be the master's type");
    const float* skip = skip_flag(skip_if_overflow, "sgd_update_multi");
    with_master_and_gradient(
        *parameters[0], *gradients[0], "sgd_update_multi",
        [&](auto master_zero, auto gradient_zero) {
            using T = decltype(master_zero);
            using G = decltype(gradient_zero);
            const auto constants = cuda::math::sgd_constants<T>(settings, grad_factor);
            launch_lists<3>(
                parameters.size(),
                [&](std::size_t i) {
                    return std::array<const Tensor*, 3>{parameters[i], gradients[i], velocities[i]};
                },
                "sgd_update_multi",
                [&](const TensorList<3>& list) {
                    cuda::kernels::sgd_update_multi<T, G>(stream(), list, constants, skip);
                });
        });
}

void CudaBackend::adam_update_multi(std::span<Tensor* const> parameters,
                                    std::span<const Tensor* const> gradients,
                                    std::span<Tensor* const> first_moments,
                                    std::span<Tensor* const> second_moments,
                                    const AdamSettings& settings, double grad_factor,
                                    const Tensor& skip_if_overflow) {
    OpRange range("adam_update_multi");
    require_lengths(parameters.size(), gradients.size(), "adam_update_multi");
    require_lengths(parameters.size(), first_moments.size(), "adam_update_multi");
    require_lengths(parameters.size(), second_moments.size(), "adam_update_multi");
    if (parameters.empty()) {
        return;
    }
    require(first_moments[0]->dtype() == parameters[0]->dtype() &&
                second_moments[0]->dtype() == parameters[0]->dtype(),
            "adam_update_multi", "moments must be the master's type");
    const float* skip = skip_flag(skip_if_overflow, "adam_update_multi");
    with_master_and_gradient(
        *parameters[0], *gradients[0], "adam_update_multi",
        [&](auto master_zero, auto gradient_zero) {
            using T = decltype(master_zero);
            using G = decltype(gradient_zero);
            const auto constants = cuda::math::adam_constants<T>(settings, grad_factor);
            // Bias correction changes every step: a captured step reads the constants from
            // the block each replay refreshes.
            const cuda::math::AdamConstants<T>* device_constants =
                graph_ && graph_->capturing() ? graph_->adam_constants<T>(settings, grad_factor)
                                              : nullptr;
            launch_lists<4>(
                parameters.size(),
                [&](std::size_t i) {
                    return std::array<const Tensor*, 4>{parameters[i], gradients[i],
                                                        first_moments[i], second_moments[i]};
                },
                "adam_update_multi",
                [&](const TensorList<4>& list) {
                    cuda::kernels::adam_update_multi<T, G>(stream(), list, constants,
                                                           device_constants, skip);
                });
        });
}

void CudaBackend::flag_non_finite_multi(std::span<const Tensor* const> tensors, Tensor& overflow) {
    OpRange range("flag_non_finite_multi");
    require(overflow.dtype() == DType::f32 && overflow.elements() == 1, "flag_non_finite_multi",
            "the overflow flag must be an f32 tensor of one element");
    if (tensors.empty()) {
        return;
    }
    with_storage_type(*tensors[0], "flag_non_finite_multi", [&](auto zero) {
        using T = decltype(zero);
        launch_lists<1>(
            tensors.size(), [&](std::size_t i) { return std::array<const Tensor*, 1>{tensors[i]}; },
            "flag_non_finite_multi",
            [&](const TensorList<1>& list) {
                cuda::kernels::flag_non_finite_multi<T>(stream(), list, overflow.data<float>());
            });
    });
}

void CudaBackend::convert_multi(std::span<const Tensor* const> sources,
                                std::span<Tensor* const> destinations) {
    OpRange range("convert_multi");
    require_lengths(sources.size(), destinations.size(), "convert_multi");
    if (sources.empty()) {
        return;
    }
    with_storage_type(*sources[0], "convert_multi", [&](auto from_zero) {
        using From = decltype(from_zero);
        with_storage_type(*destinations[0], "convert_multi", [&](auto to_zero) {
            using To = decltype(to_zero);
            launch_lists<2>(
                sources.size(),
                [&](std::size_t i) {
                    return std::array<const Tensor*, 2>{sources[i], destinations[i]};
                },
                "convert_multi",
                [&](const TensorList<2>& list) {
                    cuda::kernels::convert_multi<To, From>(stream(), list);
                });
        });
    });
}

}  // namespace trainscope::workloads
