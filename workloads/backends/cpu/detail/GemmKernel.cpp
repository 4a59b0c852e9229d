#include "workloads/backends/cpu/detail/GemmKernel.hpp"

#include "workloads/backends/cpu/detail/Blas.hpp"
#include "workloads/backends/cpu/detail/Tf32Inputs.hpp"

namespace trainscope::workloads::cpu {

template <typename T>
void gemm(KernelContext& context, bool transpose_a, bool transpose_b, std::int64_t m,
          std::int64_t n, std::int64_t k, T alpha, const T* a, const T* b, T beta, T* c) {
    if (sizeof(T) == 4 && context.math == MathMode::tf32) {
        context.shared_scratch.reserve(static_cast<std::size_t>(m * k) * sizeof(T));
        context.shared_scratch_2.reserve(static_cast<std::size_t>(k * n) * sizeof(T));
        copy_as_tf32(a, context.shared_scratch.as<T>(), m * k);
        copy_as_tf32(b, context.shared_scratch_2.as<T>(), k * n);
        a = context.shared_scratch.as<T>();
        b = context.shared_scratch_2.as<T>();
    }
    const int lda = static_cast<int>(transpose_a ? m : k);
    const int ldb = static_cast<int>(transpose_b ? k : n);
    const int ldc = static_cast<int>(n);
    constexpr std::int64_t kParallelMultiplyAdds = 1 << 16;
    const bool split_rows = m >= n;
    const std::int64_t split = m * n * k < kParallelMultiplyAdds ? 1 : (split_rows ? m : n);
    if (split == 1) {
        blas_gemm(transpose_a, transpose_b, static_cast<int>(m), static_cast<int>(n),
                  static_cast<int>(k), alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    context.pool.parallel_for(split, [&](std::int64_t begin, std::int64_t end, int) {
        const std::int64_t extent = end - begin;
        if (split_rows) {
            // Rows [begin, end) of op(a): row offset in a, or column offset when transposed.
            const T* a_block = transpose_a ? a + begin : a + begin * k;
            blas_gemm(transpose_a, transpose_b, static_cast<int>(extent), static_cast<int>(n),
                      static_cast<int>(k), alpha, a_block, lda, b, ldb, beta, c + begin * n, ldc);
        } else {
            const T* b_block = transpose_b ? b + begin * k : b + begin;
            blas_gemm(transpose_a, transpose_b, static_cast<int>(m), static_cast<int>(extent),
                      static_cast<int>(k), alpha, a, lda, b_block, ldb, beta, c + begin, ldc);
        }
    });
}

template void gemm<float>(KernelContext&, bool, bool, std::int64_t, std::int64_t, std::int64_t,
                          float, const float*, const float*, float, float*);
template void gemm<double>(KernelContext&, bool, bool, std::int64_t, std::int64_t, std::int64_t,
                           double, const double*, const double*, double, double*);

}  // namespace trainscope::workloads::cpu
