#include <gtest/gtest.h>

#include "workloads/backends/cuda/CublasGemm.hpp"
#include "workloads/backends/cuda/PrecisionSelection.hpp"

namespace trainscope::workloads::cuda {
namespace {

// TrainingResult::emulated on this backend: nothing, since fp16/bf16 store real 16-bit
// tensors (storage_dtype) and tf32 is real tensor-core math.
TEST(PrecisionSelection, NoPrecisionIsEmulated) {
    EXPECT_FALSE(precision_is_emulated(Precision::fp32));
    EXPECT_FALSE(precision_is_emulated(Precision::tf32));
    EXPECT_FALSE(precision_is_emulated(Precision::fp64));
    EXPECT_FALSE(precision_is_emulated(Precision::fp16));
    EXPECT_FALSE(precision_is_emulated(Precision::bf16));
}

// Backend::storage_dtype: what the engine allocates activations, gradients and weight
// compute copies in.
TEST(PrecisionSelection, HalfPrecisionsStoreSixteenBitTensors) {
    EXPECT_EQ(storage_dtype_for(Precision::fp16), DType::f16);
    EXPECT_EQ(storage_dtype_for(Precision::bf16), DType::bf16);
    EXPECT_EQ(storage_dtype_for(Precision::fp32), DType::f32);
    EXPECT_EQ(storage_dtype_for(Precision::tf32), DType::f32);
    EXPECT_EQ(storage_dtype_for(Precision::fp64), DType::f64);
}

TEST(PrecisionSelection, Fp32RunsWithoutTensorCores) {
    const LibraryMath math = library_math_for(Precision::fp32);
    EXPECT_EQ(math.cudnn_math, CUDNN_FMA_MATH);
    // Not _PEDANTIC (which also forbids split-K) and not _FAST_TF32.
    EXPECT_EQ(math.cublas_compute, CUBLAS_COMPUTE_32F);
    EXPECT_EQ(math.data_type, CUDA_R_32F);
    EXPECT_EQ(math.cudnn_data_type, CUDNN_DATA_FLOAT);
}

TEST(PrecisionSelection, Tf32UsesTensorCoresOnFp32Data) {
    const LibraryMath math = library_math_for(Precision::tf32);
    // Not ALLOW_CONVERSION: that also permits down-converting fp32 inputs to fp16.
    EXPECT_EQ(math.cudnn_math, CUDNN_TENSOR_OP_MATH);
    EXPECT_EQ(math.cublas_compute, CUBLAS_COMPUTE_32F_FAST_TF32);
    EXPECT_EQ(math.data_type, CUDA_R_32F);
}

TEST(PrecisionSelection, HalfPrecisionsUseTensorCoresWithFp32Accumulation) {
    const LibraryMath fp16 = library_math_for(Precision::fp16);
    EXPECT_EQ(fp16.cudnn_math, CUDNN_TENSOR_OP_MATH);
    EXPECT_EQ(fp16.cublas_compute, CUBLAS_COMPUTE_32F);
    EXPECT_EQ(fp16.data_type, CUDA_R_16F);
    EXPECT_EQ(fp16.cudnn_data_type, CUDNN_DATA_HALF);
    const LibraryMath bf16 = library_math_for(Precision::bf16);
    EXPECT_EQ(bf16.cudnn_math, CUDNN_TENSOR_OP_MATH);
    EXPECT_EQ(bf16.cublas_compute, CUBLAS_COMPUTE_32F);
    EXPECT_EQ(bf16.data_type, CUDA_R_16BF);
    EXPECT_EQ(bf16.cudnn_data_type, CUDNN_DATA_BFLOAT16);
    // The convolution descriptor computes in float for 16-bit data (PSEUDO_HALF_CONFIG,
    // PSEUDO_BFLOAT16_CONFIG), not in half (TRUE_HALF_CONFIG would accumulate in fp16).
    EXPECT_EQ(fp16.cudnn_compute_type, CUDNN_DATA_FLOAT);
    EXPECT_EQ(bf16.cudnn_compute_type, CUDNN_DATA_FLOAT);
}

TEST(PrecisionSelection, Fp64IsDoubleThroughout) {
    const LibraryMath math = library_math_for(Precision::fp64);
    EXPECT_EQ(math.cudnn_math, CUDNN_DEFAULT_MATH);
    EXPECT_EQ(math.cublas_compute, CUBLAS_COMPUTE_64F);
    EXPECT_EQ(math.data_type, CUDA_R_64F);
    EXPECT_EQ(math.cudnn_data_type, CUDNN_DATA_DOUBLE);
    EXPECT_EQ(math.cudnn_compute_type, CUDNN_DATA_DOUBLE);
}

TEST(PrecisionSelection, EngineTensorsMapToTheirPrecision) {
    EXPECT_EQ(library_math_for(DType::f32, MathMode::native).cudnn_math, CUDNN_FMA_MATH);
    EXPECT_EQ(library_math_for(DType::f32, MathMode::tf32).cublas_compute,
              CUBLAS_COMPUTE_32F_FAST_TF32);
    // fp64 has no tf32 mode: the math mode does not change it.
    EXPECT_EQ(library_math_for(DType::f64, MathMode::tf32).cublas_compute, CUBLAS_COMPUTE_64F);
    // 16-bit tensors take their own precision's choice whatever the math mode.
    EXPECT_EQ(library_math_for(DType::f16, MathMode::native).data_type, CUDA_R_16F);
    EXPECT_EQ(library_math_for(DType::bf16, MathMode::native).cudnn_data_type, CUDNN_DATA_BFLOAT16);
    EXPECT_THROW(library_math_for(DType::i32, MathMode::native), std::logic_error);
}

TEST(PrecisionSelection, NamesAreTheLibraryEnumerators) {
    EXPECT_EQ(cudnn_math_name(CUDNN_FMA_MATH), "CUDNN_FMA_MATH");
    EXPECT_EQ(cudnn_math_name(CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION),
              "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION");
    EXPECT_EQ(cublas_compute_name(CUBLAS_COMPUTE_32F_PEDANTIC), "CUBLAS_COMPUTE_32F_PEDANTIC");
    EXPECT_EQ(cublas_compute_name(CUBLAS_COMPUTE_64F), "CUBLAS_COMPUTE_64F");
}

TEST(ColumnMajorGemmArgs, PlainProductSwapsOperands) {
    // c[2,3] = a[2,4] * b[4,3] row-major -> c^T[3,2] = b^T[3,4] * a^T[4,2] column-major.
    const ColumnMajorGemmArgs args = column_major_args({false, false, 2, 3, 4});
    EXPECT_EQ(args.op_first, CUBLAS_OP_N);
    EXPECT_EQ(args.op_second, CUBLAS_OP_N);
    EXPECT_EQ(args.rows, 3);
    EXPECT_EQ(args.cols, 2);
    EXPECT_EQ(args.inner, 4);
    EXPECT_EQ(args.ld_first, 3);   // b's row length
    EXPECT_EQ(args.ld_second, 4);  // a's row length
    EXPECT_EQ(args.ld_out, 3);
}

TEST(ColumnMajorGemmArgs, TransposesKeepTheirFlagsOnTheSwappedOperands) {
    // a stored [4,2] (op(a) = a^T is [2,4]), b stored [3,4] (op(b) = b^T is [4,3]).
    const ColumnMajorGemmArgs args = column_major_args({true, true, 2, 3, 4});
    EXPECT_EQ(args.op_first, CUBLAS_OP_T);
    EXPECT_EQ(args.op_second, CUBLAS_OP_T);
    EXPECT_EQ(args.ld_first, 4);   // b stored with rows of k
    EXPECT_EQ(args.ld_second, 2);  // a stored with rows of m
    EXPECT_EQ(args.ld_out, 3);
}

}  // namespace
}  // namespace trainscope::workloads::cuda
