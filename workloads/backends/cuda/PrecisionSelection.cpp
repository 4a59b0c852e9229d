#include "workloads/backends/cuda/PrecisionSelection.hpp"

#include <stdexcept>

namespace trainscope::workloads::cuda {

LibraryMath library_math_for(Precision precision) {
    switch (precision) {
        case Precision::fp32:
            // CUBLAS_COMPUTE_32F, as PyTorch with TF32 off: fp32 arithmetic with the
            // library's faster fp32 algorithms (split-K); _PEDANTIC would forbid those.
            return {CUDNN_FMA_MATH, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDNN_DATA_FLOAT,
                    CUDNN_DATA_FLOAT};
        case Precision::tf32:
            // TENSOR_OP lets fp32 data run on tf32 tensor cores; ALLOW_CONVERSION would also
            // let cuDNN down-convert fp32 inputs to fp16, which is not what "tf32" promises.
            return {CUDNN_TENSOR_OP_MATH, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F,
                    CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT};
        // 16-bit data, fp32 accumulation: cublasGemmEx with A/B/C CUDA_R_16F (16BF) and
        // CUBLAS_COMPUTE_32F (float alpha/beta); cuDNN's PSEUDO_HALF / PSEUDO_BFLOAT16
        // configurations (16-bit tensors, float convolution compute type).
        case Precision::fp16:
            return {CUDNN_TENSOR_OP_MATH, CUBLAS_COMPUTE_32F, CUDA_R_16F, CUDNN_DATA_HALF,
                    CUDNN_DATA_FLOAT};
        case Precision::bf16:
            return {CUDNN_TENSOR_OP_MATH, CUBLAS_COMPUTE_32F, CUDA_R_16BF, CUDNN_DATA_BFLOAT16,
                    CUDNN_DATA_FLOAT};
        case Precision::fp64:
            // Double has no tensor-core path in cuDNN; DEFAULT is what PyTorch passes for it.
            return {CUDNN_DEFAULT_MATH, CUBLAS_COMPUTE_64F, CUDA_R_64F, CUDNN_DATA_DOUBLE,
                    CUDNN_DATA_DOUBLE};
    }
    throw std::logic_error("library_math_for: unknown precision");
}

DType storage_dtype_for(Precision precision) {
    switch (precision) {
        case Precision::fp16:
            return DType::f16;
        case Precision::bf16:
            return DType::bf16;
        case Precision::fp64:
            return DType::f64;
        case Precision::fp32:
        case Precision::tf32:
            return DType::f32;
    }
    throw std::logic_error("storage_dtype_for: unknown precision");
}

bool precision_is_emulated(Precision precision) {
    switch (precision) {
        case Precision::fp16:
        case Precision::bf16:
        case Precision::fp32:
        case Precision::tf32:
        case Precision::fp64:
            return false;
    }
    throw std::logic_error("precision_is_emulated: unknown precision");
}

LibraryMath library_math_for(DType dtype, MathMode mode) {
    switch (dtype) {
        case DType::f64:
            return library_math_for(Precision::fp64);
        case DType::f32:
            return library_math_for(mode == MathMode::tf32 ? Precision::tf32 : Precision::fp32);
        case DType::f16:
            return library_math_for(Precision::fp16);
        case DType::bf16:
            return library_math_for(Precision::bf16);
        case DType::i32:
            break;
    }
    throw std::logic_error("library_math_for: convolution and GEMM need float tensors");
}

std::string cudnn_math_name(cudnnMathType_t math) {
    switch (math) {
        case CUDNN_DEFAULT_MATH:
            return "CUDNN_DEFAULT_MATH";
        case CUDNN_TENSOR_OP_MATH:
            return "CUDNN_TENSOR_OP_MATH";
        case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION:
            return "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION";
        case CUDNN_FMA_MATH:
            return "CUDNN_FMA_MATH";
    }
    return "cudnnMathType_t(" + std::to_string(static_cast<int>(math)) + ")";
}

std::string cublas_compute_name(cublasComputeType_t compute) {
    switch (compute) {
        case CUBLAS_COMPUTE_32F_PEDANTIC:
            return "CUBLAS_COMPUTE_32F_PEDANTIC";
        case CUBLAS_COMPUTE_32F:
            return "CUBLAS_COMPUTE_32F";
        case CUBLAS_COMPUTE_32F_FAST_TF32:
            return "CUBLAS_COMPUTE_32F_FAST_TF32";
        case CUBLAS_COMPUTE_32F_FAST_16F:
            return "CUBLAS_COMPUTE_32F_FAST_16F";
        case CUBLAS_COMPUTE_32F_FAST_16BF:
            return "CUBLAS_COMPUTE_32F_FAST_16BF";
        case CUBLAS_COMPUTE_64F:
            return "CUBLAS_COMPUTE_64F";
        default:
            break;
    }
    return "cublasComputeType_t(" + std::to_string(static_cast<int>(compute)) + ")";
}

}  // namespace trainscope::workloads::cuda
