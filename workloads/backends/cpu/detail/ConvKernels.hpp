#pragma once

#include <cstdint>

#include "workloads/backends/cpu/detail/ConvDims.hpp"
#include "workloads/backends/cpu/detail/CpuKernelContext.hpp"

namespace trainscope::workloads::cpu {

// Convolution as one GEMM per image over im2col columns, images split across workers;
// every worker calls single-threaded BLAS. Under MathMode::tf32 the GEMM inputs are
// rounded to tf32 on their way into the columns and weight copies.
template <typename T>
void conv_forward(KernelContext& context, const ConvDims& dims, const T* x, const T* w,
                  const T* bias, T* y);
template <typename T>
void conv_backward_data(KernelContext& context, const ConvDims& dims, const T* dy, const T* w,
                        T* dx);
// Partial filter gradients per worker are summed in worker order, so the result depends
// only on the number of workers. dbias may be null.
template <typename T>
void conv_backward_filter(KernelContext& context, const ConvDims& dims, const T* x, const T* dy,
                          T* dw, T* dbias);

}  // namespace trainscope::workloads::cpu
