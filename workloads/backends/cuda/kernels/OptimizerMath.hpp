#pragma once

#include <cmath>
#include <cstdint>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/numerics/HostDevice.hpp"

// PyTorch's SGD and Adam updates for one element, with the CPU backend's operation
// order and precision (T arithmetic, constants rounded to T once).
namespace trainscope::workloads::cuda::math {

// The guard of a skippable update: null (never skipped) or the step's f32 overflow flag.
TS_HD inline bool update_skipped(const float* skip_if_overflow) {
    return skip_if_overflow != nullptr && *skip_if_overflow != 0.0f;
}

template <typename T>
struct SgdConstants {
    T grad_factor;
    T weight_decay;
    T momentum;
    T learning_rate;
};

template <typename T>
SgdConstants<T> sgd_constants(const SgdSettings& settings, double grad_factor) {
    return {static_cast<T>(grad_factor), static_cast<T>(settings.weight_decay),
            static_cast<T>(settings.momentum), static_cast<T>(settings.learning_rate)};
}

template <typename T>
TS_HD inline void sgd_step(const SgdConstants<T>& k, T& parameter, T gradient, T& velocity) {
    const T g = gradient * k.grad_factor + k.weight_decay * parameter;
    velocity = k.momentum * velocity + g;
    parameter -= k.learning_rate * velocity;
}

template <typename T>
struct AdamConstants {
    T grad_factor;
    T beta1;
    T beta2;
    T one_minus_beta1;
    T one_minus_beta2;
    T step_size;         // learning_rate / (1 - beta1^step)
    T correction2_sqrt;  // sqrt(1 - beta2^step)
    T epsilon;
};

template <typename T>
AdamConstants<T> adam_constants(const AdamSettings& settings, double grad_factor) {
    const double step = static_cast<double>(settings.step);
    const double correction1 = 1.0 - std::pow(settings.beta1, step);
    const double correction2 = 1.0 - std::pow(settings.beta2, step);
    return {static_cast<T>(grad_factor),
            static_cast<T>(settings.beta1),
            static_cast<T>(settings.beta2),
            static_cast<T>(1.0 - settings.beta1),
            static_cast<T>(1.0 - settings.beta2),
            static_cast<T>(settings.learning_rate / correction1),
            static_cast<T>(std::sqrt(correction2)),
            static_cast<T>(settings.epsilon)};
}

template <typename T>
TS_HD inline void adam_step(const AdamConstants<T>& k, T& parameter, T gradient, T& first_moment,
                            T& second_moment) {
    const T g = gradient * k.grad_factor;
    first_moment = first_moment * k.beta1 + k.one_minus_beta1 * g;
    second_moment = second_moment * k.beta2 + k.one_minus_beta2 * g * g;
    const T denominator = std::sqrt(second_moment) / k.correction2_sqrt + k.epsilon;
    parameter -= k.step_size * first_moment / denominator;
}

}  // namespace trainscope::workloads::cuda::math
