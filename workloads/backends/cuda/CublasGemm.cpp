#include "workloads/backends/cuda/CublasGemm.hpp"

#include <limits>
#include <stdexcept>

#include "workloads/backends/cuda/GpuCheck.hpp"

namespace trainscope::workloads::cuda {
namespace {

int as_int(std::int64_t value) {
    if (value > std::numeric_limits<int>::max()) {
        throw std::invalid_argument("GEMM dimension " + std::to_string(value) +
                                    " exceeds cuBLAS's int range");
    }
    return static_cast<int>(value);
}

}  // namespace

ColumnMajorGemmArgs column_major_args(const RowMajorGemm& shape) {
    ColumnMajorGemmArgs args{};
    // First operand is b (row-major [k,n], or [n,k] when transposed), second is a.
    args.op_first = shape.transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N;
    args.op_second = shape.transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N;
    args.rows = as_int(shape.n);
    args.cols = as_int(shape.m);
    args.inner = as_int(shape.k);
    args.ld_first = as_int(shape.transpose_b ? shape.k : shape.n);
    args.ld_second = as_int(shape.transpose_a ? shape.m : shape.k);
    args.ld_out = as_int(shape.n);
    return args;
}

void cublas_row_major_gemm(cublasHandle_t handle, const RowMajorGemm& shape,
                           const LibraryMath& math, const void* alpha, const void* a, const void* b,
                           const void* beta, void* c) {
    const ColumnMajorGemmArgs args = column_major_args(shape);
    TS_CUBLAS_CHECK(cublasGemmEx(handle, args.op_first, args.op_second, args.rows, args.cols,
                                 args.inner, alpha, b, math.data_type, args.ld_first, a,
                                 math.data_type, args.ld_second, beta, c, math.data_type,
                                 args.ld_out, math.cublas_compute, CUBLAS_GEMM_DEFAULT));
}

}  // namespace trainscope::workloads::cuda
