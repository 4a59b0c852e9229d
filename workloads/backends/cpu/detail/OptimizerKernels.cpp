#include "workloads/backends/cpu/detail/OptimizerKernels.hpp"

#include <cmath>

#include "workloads/backends/cpu/detail/ElementwiseKernels.hpp"

namespace trainscope::workloads::cpu {

template <typename T>
void sgd_update(KernelContext& context, std::int64_t count, T* parameter, const T* gradient,
                T* velocity, const SgdSettings& settings, double grad_factor) {
    const T factor = static_cast<T>(grad_factor);
    const T decay = static_cast<T>(settings.weight_decay);
    const T momentum = static_cast<T>(settings.momentum);
    const T rate = static_cast<T>(settings.learning_rate);
    for_elements(context, count, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
            const T g = gradient[i] * factor + decay * parameter[i];
            velocity[i] = momentum * velocity[i] + g;
            parameter[i] -= rate * velocity[i];
        }
    });
}

template <typename T>
void adam_update(KernelContext& context, std::int64_t count, T* parameter, const T* gradient,
                 T* first_moment, T* second_moment, const AdamSettings& settings,
                 double grad_factor) {
    const double step = static_cast<double>(settings.step);
    const double correction1 = 1.0 - std::pow(settings.beta1, step);
    const double correction2 = 1.0 - std::pow(settings.beta2, step);
    const T factor = static_cast<T>(grad_factor);
    const T beta1 = static_cast<T>(settings.beta1);
    const T beta2 = static_cast<T>(settings.beta2);
    const T one_minus_beta1 = static_cast<T>(1.0 - settings.beta1);
    const T one_minus_beta2 = static_cast<T>(1.0 - settings.beta2);
    const T step_size = static_cast<T>(settings.learning_rate / correction1);
    const T correction2_sqrt = static_cast<T>(std::sqrt(correction2));
    const T epsilon = static_cast<T>(settings.epsilon);
    for_elements(context, count, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
            const T g = gradient[i] * factor;
            first_moment[i] = first_moment[i] * beta1 + one_minus_beta1 * g;
            second_moment[i] = second_moment[i] * beta2 + one_minus_beta2 * g * g;
            const T denominator = std::sqrt(second_moment[i]) / correction2_sqrt + epsilon;
            parameter[i] -= step_size * first_moment[i] / denominator;
        }
    });
}

template void sgd_update<float>(KernelContext&, std::int64_t, float*, const float*, float*,
                                const SgdSettings&, double);
template void sgd_update<double>(KernelContext&, std::int64_t, double*, const double*, double*,
                                 const SgdSettings&, double);
template void adam_update<float>(KernelContext&, std::int64_t, float*, const float*, float*, float*,
                                 const AdamSettings&, double);
template void adam_update<double>(KernelContext&, std::int64_t, double*, const double*, double*,
                                  double*, const AdamSettings&, double);

}  // namespace trainscope::workloads::cpu
