#pragma once

#include <cudnn_graph.h>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/backends/cuda/CudnnLegacyAdapter.hpp"
#include "workloads/backends/cuda/kernels/PoolingMath.hpp"
#include "workloads/numerics/Precision.hpp"
#include "workloads/tensor/Tensor.hpp"

namespace trainscope::workloads::cuda {

// What the CUDA backend hands the libraries and its kernels for an op on engine tensors:
// dimensions as the libraries' ints, element and compute types, checked against the
// Backend contract. Pure (no device), so the CPU tests check the translation.

// A broken Backend contract (shapes, element types): std::logic_error
// "cuda backend: <op>: <what>".
void require(bool condition, const char* op, const char* what);

// The dtype of master weights, optimizer state and batch-norm parameters and statistics
// next to tensors stored in `storage`: f64 for f64, f32 for everything else.
DType master_dtype_of(DType storage);

// CUDNN_DATA_FLOAT, _DOUBLE, _HALF or _BFLOAT16; i32 throws.
cudnnDataType_t cudnn_type(const Tensor& tensor, const char* op);

// x [N,C,H,W], w [K,C,R,S], y [N,K,P,Q] of one element type; P and Q must follow from
// the geometry. Data, compute and math types from library_math_for(dtype, math).
ConvProblem conv_problem(const Tensor& x, const Tensor& w, const Tensor& y,
                         const Conv2dGeometry& geometry, MathMode math);

// The planes of a pooling from x [N,C,H,W] to y [N,C,P,Q].
math::PoolPlane pool_plane(const Tensor& x, const Tensor& y, const Pool2dGeometry& geometry);

// x [N,C,H,W] or [N,C] in its storage dtype; gamma (and every statistic) in the master
// dtype of x, as cuDNN requires for 16-bit data.
BatchNormProblem batch_norm_problem(const Tensor& x, const Tensor& gamma);

}  // namespace trainscope::workloads::cuda
