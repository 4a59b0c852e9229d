#pragma once

#include <cublas_v2.h>

#include <cstdint>

#include "workloads/backends/cuda/PrecisionSelection.hpp"

namespace trainscope::workloads::cuda {

// Row-major c[m,n] = alpha * op(a) * op(b) + beta * c through cublasGemmEx. cuBLAS is
// column-major, and a row-major matrix is its transpose in column-major order, so the
// call computes c^T = op(b)^T * op(a)^T: operands swapped, transpose flags kept.
struct RowMajorGemm {
    bool transpose_a = false;
    bool transpose_b = false;
    std::int64_t m = 0, n = 0, k = 0;
};

// alpha/beta point to double for CUBLAS_COMPUTE_64F and to float otherwise.
void cublas_row_major_gemm(cublasHandle_t handle, const RowMajorGemm& shape,
                           const LibraryMath& math, const void* alpha, const void* a, const void* b,
                           const void* beta, void* c);

// The column-major arguments the row-major call becomes; exposed for unit tests.
struct ColumnMajorGemmArgs {
    cublasOperation_t op_first, op_second;
    int rows, cols, inner;            // cuBLAS m, n, k
    int ld_first, ld_second, ld_out;  // lda (of b), ldb (of a), ldc
};
ColumnMajorGemmArgs column_major_args(const RowMajorGemm& shape);

}  // namespace trainscope::workloads::cuda
