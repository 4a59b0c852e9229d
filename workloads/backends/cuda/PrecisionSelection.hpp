#pragma once

#include <cublas_api.h>
#include <cudnn_graph.h>
#include <library_types.h>

#include <string>

#include "workloads/numerics/Precision.hpp"
#include "workloads/tensor/DType.hpp"

// Which cuDNN math type and cuBLAS compute type each precision runs with. Pure
// functions, so the choice is unit-tested on a machine without a GPU.
namespace trainscope::workloads::cuda {

// What the library call computes with, for one precision of the vocabulary.
struct LibraryMath {
    cudnnMathType_t cudnn_math = CUDNN_FMA_MATH;
    cublasComputeType_t cublas_compute = CUBLAS_COMPUTE_32F;
    cudaDataType_t data_type = CUDA_R_32F;  // GEMM operand/convolution data type
    cudnnDataType_t cudnn_data_type = CUDNN_DATA_FLOAT;
    // The convolution descriptor's compute type: float for fp16/bf16 data (cuDNN's
    // PSEUDO_HALF / PSEUDO_BFLOAT16 configurations, fp32 accumulation), else the data type.
    cudnnDataType_t cudnn_compute_type = CUDNN_DATA_FLOAT;
};

// fp32: no tensor cores (FMA math, pedantic cuBLAS); tf32: tf32 tensor cores on fp32
// data (TENSOR_OP, not ALLOW_CONVERSION, which permits fp16 down-conversion);
// fp16/bf16: tensor-core math on 16-bit data with fp32 accumulation; fp64: fp64.
LibraryMath library_math_for(Precision precision);

// What the backend runs for a call on tensors of `dtype` under the engine's math mode:
// f16/bf16 tensors (fp16/bf16 runs store them natively) take the fp16/bf16 choice, f32
// the fp32 or tf32 one by the mode, f64 the fp64 one.
LibraryMath library_math_for(DType dtype, MathMode mode);

// Backend::storage_dtype here: f16 for fp16, bf16 for bf16 (real 16-bit storage on tensor
// cores), f64 for fp64, f32 for fp32 and tf32.
DType storage_dtype_for(Precision precision);

// False for every precision: fp16/bf16 store 16-bit tensors and run cuDNN/cuBLAS on
// tensor cores, tf32 is real tensor-core math, fp32/fp64 are native.
bool precision_is_emulated(Precision precision);

std::string cudnn_math_name(cudnnMathType_t math);
std::string cublas_compute_name(cublasComputeType_t compute);

}  // namespace trainscope::workloads::cuda
