#pragma once

#include <cstdint>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/backends/cpu/detail/CpuKernelContext.hpp"

namespace trainscope::workloads::cpu {

// PyTorch's SGD (momentum, no dampening, weight decay added to the gradient) and Adam
// (bias-corrected, eps added to the corrected sqrt of the second moment).
template <typename T>
void sgd_update(KernelContext& context, std::int64_t count, T* parameter, const T* gradient,
                T* velocity, const SgdSettings& settings, double grad_factor);
template <typename T>
void adam_update(KernelContext& context, std::int64_t count, T* parameter, const T* gradient,
                 T* first_moment, T* second_moment, const AdamSettings& settings,
                 double grad_factor);

}  // namespace trainscope::workloads::cpu
