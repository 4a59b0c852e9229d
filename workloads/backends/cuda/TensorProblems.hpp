#pragma once

#include <cudnn_graph.h>

#include <initializer_list>
#include <string>

#include "workloads/backend/OpGeometry.hpp"
#include "workloads/backends/cuda/CudnnLegacyAdapter.hpp"
#include "workloads/backends/cuda/CudnnLegacyPooling.hpp"
#include "workloads/backends/cuda/kernels/BatchNormKernels.hpp"
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

// x [N,C,H,W] -> y [N,C,P,Q] of one element type, P and Q the engine's floor formula
// (conv_output_extent, which the CPU backend and Pool2d use).
PoolProblem pool_problem(const Tensor& x, const Tensor& y, const Pool2dGeometry& geometry,
                         PoolKind kind);

// Empty when cuDNN's output extent (cudnnGetPooling2dForwardOutputDim) equals the
// problem's P x Q, else the error message naming both.
std::string pool_extent_mismatch(const PoolProblem& problem, int cudnn_p, int cudnn_q);

// ReLU on x and y of one element type and element count, viewed in x's shape:
// [N,C,H,W] as is, [N,F] as [N,F,1,1], any other rank as [elements,1,1,1].
ActivationProblem activation_problem(const Tensor& x, const Tensor& y, const char* op);

// x [N,C,H,W] or [N,C] in its storage dtype; gamma (and every statistic) in the master
// dtype of x, as cuDNN requires for 16-bit data.
BatchNormProblem batch_norm_problem(const Tensor& x, const Tensor& gamma);

// True where batch norm on data stored as `storage` runs on this backend's own kernels
// (bf16: PyTorch never hands bf16 input to cuDNN's batch norm either, see
// docs/cuda-backend.md), false where cuDNN's legacy batch norm runs it (f32, f64, f16).
bool batch_norm_uses_own_kernels(DType storage);

// The own kernels' [n, channels, area] for x [N,C,H,W] or [N,C] (area 1): `like_x` (y, dy,
// dx) must have x's dtype and shape, `per_channel` (gamma, beta, statistics and their
// gradients) be f32 with C elements, and x bf16, f16 or f32.
kernels::BatchNormShape own_batch_norm_shape(const Tensor& x,
                                             std::initializer_list<const Tensor*> like_x,
                                             std::initializer_list<const Tensor*> per_channel);

}  // namespace trainscope::workloads::cuda
