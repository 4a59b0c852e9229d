#pragma once

#include <cstdint>

#include "workloads/backends/cpu/detail/CpuKernelContext.hpp"

namespace trainscope::workloads::cpu {

// c[m,n] = alpha * op(a) * op(b) + beta * c, row-major, op(a) is m x k. The larger of
// m and n is split across workers, each calling single-threaded BLAS on its block.
template <typename T>
void gemm(KernelContext& context, bool transpose_a, bool transpose_b, std::int64_t m,
          std::int64_t n, std::int64_t k, T alpha, const T* a, const T* b, T beta, T* c);

}  // namespace trainscope::workloads::cpu
