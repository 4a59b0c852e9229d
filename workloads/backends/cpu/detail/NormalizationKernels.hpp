#pragma once

#include <cstdint>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/backends/cpu/detail/CpuKernelContext.hpp"

namespace trainscope::workloads::cpu {

// x [n, c, area]; statistics per channel, accumulated in double.
struct NormDims {
    std::int64_t n, c, area;
};

template <typename T>
void batch_norm_forward_training(KernelContext& context, const NormDims& dims, const T* x,
                                 const T* gamma, const T* beta, T* y, T* running_mean,
                                 T* running_var, T* saved_mean, T* saved_inv_std,
                                 const BatchNormSettings& settings, bool update_running);
template <typename T>
void batch_norm_forward_inference(KernelContext& context, const NormDims& dims, const T* x,
                                  const T* gamma, const T* beta, const T* running_mean,
                                  const T* running_var, T* y, const BatchNormSettings& settings);
template <typename T>
void batch_norm_backward(KernelContext& context, const NormDims& dims, const T* x, const T* dy,
                         const T* gamma, const T* saved_mean, const T* saved_inv_std, T* dx,
                         T* dgamma, T* dbeta);

}  // namespace trainscope::workloads::cpu
