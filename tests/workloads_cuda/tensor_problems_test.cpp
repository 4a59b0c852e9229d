// How the CUDA backend describes an op on engine tensors to cuDNN and its kernels: the
// dimensions, the data, compute and math types per precision (16-bit data computes in
// float on tensor cores; fp32 stays off them), and the contract checks. No device needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/backends/cpu/HostRawAllocator.hpp"
#include "workloads/backends/cuda/CudnnLegacyPooling.hpp"
#include "workloads/backends/cuda/TensorProblems.hpp"
#include "workloads/memory/TensorAllocator.hpp"

namespace trainscope::workloads::cuda {
namespace {

class TensorProblems : public ::testing::Test {
  protected:
    Tensor make(const Shape& shape, DType dtype) { return tensors_.allocate(shape, dtype); }

    HostRawAllocator raw_;
    TensorAllocator tensors_{raw_};
};

TEST_F(TensorProblems, ConvolutionDimensionsFollowTheTensors) {
    const Tensor x = make(Shape{8, 16, 14, 12}, DType::f32);
    const Tensor w = make(Shape{32, 16, 3, 3}, DType::f32);
    const Tensor y = make(Shape{8, 32, 7, 6}, DType::f32);
    const ConvProblem p = conv_problem(x, w, y, Conv2dGeometry{2, 1}, MathMode::native);
    EXPECT_EQ((std::vector<int>{p.n, p.c, p.h, p.w, p.k, p.r, p.s, p.p, p.q}),
              (std::vector<int>{8, 16, 14, 12, 32, 3, 3, 7, 6}));
    EXPECT_EQ(p.stride, 2);
    EXPECT_EQ(p.padding, 1);
}

TEST_F(TensorProblems, EachPrecisionGetsItsDataComputeAndMathTypes) {
    struct Case {
        DType dtype;
        MathMode math;
        cudnnDataType_t data, compute;
        cudnnMathType_t tensor_math;
    };
    for (const Case& c :
         {Case{DType::f32, MathMode::native, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_FMA_MATH},
          Case{DType::f32, MathMode::tf32, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT,
               CUDNN_TENSOR_OP_MATH},
          Case{DType::f16, MathMode::native, CUDNN_DATA_HALF, CUDNN_DATA_FLOAT,
               CUDNN_TENSOR_OP_MATH},
          Case{DType::bf16, MathMode::native, CUDNN_DATA_BFLOAT16, CUDNN_DATA_FLOAT,
               CUDNN_TENSOR_OP_MATH},
          Case{DType::f64, MathMode::native, CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE,
               CUDNN_DEFAULT_MATH}}) {
        const Tensor x = make(Shape{2, 4, 5, 5}, c.dtype);
        const Tensor w = make(Shape{6, 4, 3, 3}, c.dtype);
        const Tensor y = make(Shape{2, 6, 5, 5}, c.dtype);
        const ConvProblem p = conv_problem(x, w, y, Conv2dGeometry{1, 1}, c.math);
        EXPECT_EQ(p.data_type, c.data) << dtype_name(c.dtype);
        EXPECT_EQ(p.compute_type, c.compute) << dtype_name(c.dtype);
        EXPECT_EQ(p.math, c.tensor_math) << dtype_name(c.dtype);
        EXPECT_EQ(cudnn_type(x, "test"), c.data);
    }
}

TEST_F(TensorProblems, ConvolutionContractViolationsAreNamed) {
    const Tensor x = make(Shape{2, 4, 5, 5}, DType::f32);
    const Tensor w = make(Shape{6, 4, 3, 3}, DType::f32);
    const Tensor wrong_extent = make(Shape{2, 6, 4, 4}, DType::f32);
    const Tensor half_y = make(Shape{2, 6, 5, 5}, DType::f16);
    try {
        (void)conv_problem(x, w, wrong_extent, Conv2dGeometry{1, 1}, MathMode::native);
        FAIL() << "a wrong output extent passed";
    } catch (const std::logic_error& error) {
        EXPECT_STREQ(error.what(),
                     "cuda backend: conv2d: output extent does not match the geometry");
    }
    EXPECT_THROW((void)conv_problem(x, w, half_y, Conv2dGeometry{1, 1}, MathMode::native),
                 std::logic_error);
    EXPECT_THROW((void)cudnn_type(make(Shape{3}, DType::i32), "labels"), std::logic_error);
}

TEST_F(TensorProblems, BatchNormKeepsItsParametersInTheMasterType) {
    const Tensor x = make(Shape{4, 8, 6, 6}, DType::f16);
    const BatchNormProblem p = batch_norm_problem(x, make(Shape{8}, DType::f32));
    EXPECT_EQ((std::vector<int>{p.n, p.c, p.h, p.w}), (std::vector<int>{4, 8, 6, 6}));
    EXPECT_EQ(p.data_type, CUDNN_DATA_HALF);
    EXPECT_EQ(p.parameter_type(), CUDNN_DATA_FLOAT);
    EXPECT_THROW((void)batch_norm_problem(x, make(Shape{8}, DType::f16)), std::logic_error);
    const BatchNormProblem dense =
        batch_norm_problem(make(Shape{4, 8}, DType::f64), make(Shape{8}, DType::f64));
    EXPECT_EQ(dense.h, 1);
    EXPECT_EQ(dense.w, 1);
    EXPECT_EQ(dense.parameter_type(), CUDNN_DATA_DOUBLE);
    EXPECT_EQ(master_dtype_of(DType::bf16), DType::f32);
    EXPECT_EQ(master_dtype_of(DType::f64), DType::f64);
}

TEST_F(TensorProblems, OnlyBf16BatchNormRunsOnOwnKernels) {
    EXPECT_TRUE(batch_norm_uses_own_kernels(DType::bf16));
    EXPECT_FALSE(batch_norm_uses_own_kernels(DType::f16));
    EXPECT_FALSE(batch_norm_uses_own_kernels(DType::f32));
    EXPECT_FALSE(batch_norm_uses_own_kernels(DType::f64));
}

TEST_F(TensorProblems, OwnBatchNormShapeChecksTheContract) {
    const Tensor x = make(Shape{4, 8, 6, 5}, DType::bf16);
    const Tensor y = make(Shape{4, 8, 6, 5}, DType::bf16);
    const Tensor gamma = make(Shape{8}, DType::f32);
    const kernels::BatchNormShape s = own_batch_norm_shape(x, {&y}, {&gamma});
    EXPECT_EQ((std::vector<std::int64_t>{s.n, s.channels, s.area}),
              (std::vector<std::int64_t>{4, 8, 30}));
    const Tensor dense = make(Shape{16, 8}, DType::bf16);
    const kernels::BatchNormShape d = own_batch_norm_shape(dense, {&dense}, {&gamma});
    EXPECT_EQ((std::vector<std::int64_t>{d.n, d.channels, d.area}),
              (std::vector<std::int64_t>{16, 8, 1}));
    // y of another type or shape, bf16 or misshapen parameters, f64 data: contract errors.
    EXPECT_THROW((void)own_batch_norm_shape(x, {&dense}, {&gamma}), std::logic_error);
    const Tensor y_f32 = make(Shape{4, 8, 6, 5}, DType::f32);
    EXPECT_THROW((void)own_batch_norm_shape(x, {&y_f32}, {&gamma}), std::logic_error);
    const Tensor gamma_bf16 = make(Shape{8}, DType::bf16);
    EXPECT_THROW((void)own_batch_norm_shape(x, {&y}, {&gamma_bf16}), std::logic_error);
    const Tensor gamma_short = make(Shape{7}, DType::f32);
    EXPECT_THROW((void)own_batch_norm_shape(x, {&y}, {&gamma, &gamma_short}), std::logic_error);
    const Tensor x_f64 = make(Shape{4, 8, 6, 5}, DType::f64);
    EXPECT_THROW((void)own_batch_norm_shape(x_f64, {&x_f64}, {&gamma}), std::logic_error);
    const Tensor x_rank3 = make(Shape{4, 8, 6}, DType::bf16);
    EXPECT_THROW((void)own_batch_norm_shape(x_rank3, {}, {&gamma}), std::logic_error);
}

TEST_F(TensorProblems, PoolingPlanesComeFromTheInputAndOutput) {
    const math::PoolPlane plane =
        pool_plane(make(Shape{2, 3, 9, 8}, DType::f32), make(Shape{2, 3, 4, 4}, DType::f32),
                   Pool2dGeometry{3, 2, 1});
    EXPECT_EQ(plane.h, 9);
    EXPECT_EQ(plane.w, 8);
    EXPECT_EQ(plane.p, 4);
    EXPECT_EQ(plane.q, 4);
    EXPECT_THROW((void)pool_plane(make(Shape{2, 3, 9, 8}, DType::f32),
                                  make(Shape{2, 4, 4, 4}, DType::f32), Pool2dGeometry{3, 2, 1}),
                 std::logic_error);
}

TEST_F(TensorProblems, PoolingProblemCarriesDimensionsGeometryKindAndType) {
    const PoolProblem p =
        pool_problem(make(Shape{2, 3, 9, 8}, DType::f32), make(Shape{2, 3, 5, 4}, DType::f32),
                     Pool2dGeometry{3, 2, 1}, PoolKind::max);
    EXPECT_EQ((std::vector<int>{p.n, p.c, p.h, p.w, p.p, p.q}),
              (std::vector<int>{2, 3, 9, 8, 5, 4}));
    EXPECT_EQ((std::vector<int>{p.window, p.stride, p.padding}), (std::vector<int>{3, 2, 1}));
    EXPECT_EQ(p.kind, PoolKind::max);
    EXPECT_EQ(p.data_type, CUDNN_DATA_FLOAT);
    const PoolProblem average =
        pool_problem(make(Shape{2, 3, 8, 8}, DType::f32), make(Shape{2, 3, 4, 4}, DType::f32),
                     Pool2dGeometry{2, 2, 0}, PoolKind::average);
    EXPECT_EQ(average.kind, PoolKind::average);
}

TEST_F(TensorProblems, PoolingAndActivationDataTypeFollowsTheStorageType) {
    struct Case {
        DType dtype;
        cudnnDataType_t data;
    };
    for (const Case& c :
         {Case{DType::f32, CUDNN_DATA_FLOAT}, Case{DType::f64, CUDNN_DATA_DOUBLE},
          Case{DType::f16, CUDNN_DATA_HALF}, Case{DType::bf16, CUDNN_DATA_BFLOAT16}}) {
        const Tensor x = make(Shape{2, 4, 6, 6}, c.dtype);
        const Tensor y = make(Shape{2, 4, 3, 3}, c.dtype);
        EXPECT_EQ(pool_problem(x, y, Pool2dGeometry{2, 2, 0}, PoolKind::max).data_type, c.data)
            << dtype_name(c.dtype);
        EXPECT_EQ(activation_problem(x, x, "relu").data_type, c.data) << dtype_name(c.dtype);
    }
}

TEST_F(TensorProblems, PoolingModesAreDeterministicMaxAndCountIncludePadding) {
    EXPECT_STREQ(cudnn_pooling_mode_name(PoolKind::max), "CUDNN_POOLING_MAX_DETERMINISTIC");
    EXPECT_STREQ(cudnn_pooling_mode_name(PoolKind::average),
                 "CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING");
    EXPECT_STREQ(cudnn_nan_rule_name(), "CUDNN_NOT_PROPAGATE_NAN");
}

TEST_F(TensorProblems, PoolingContractViolationsAreNamed) {
    const Tensor x = make(Shape{2, 3, 8, 8}, DType::f32);
    // The engine's floor formula gives 4x4 for window 2, stride 2: 5x5 is refused.
    EXPECT_THROW((void)pool_problem(x, make(Shape{2, 3, 5, 5}, DType::f32), Pool2dGeometry{2, 2, 0},
                                    PoolKind::max),
                 std::logic_error);
    EXPECT_THROW((void)pool_problem(x, make(Shape{2, 3, 4, 4}, DType::f16), Pool2dGeometry{2, 2, 0},
                                    PoolKind::max),
                 std::logic_error);
    EXPECT_THROW((void)pool_problem(x, make(Shape{2, 4, 4, 4}, DType::f32), Pool2dGeometry{2, 2, 0},
                                    PoolKind::average),
                 std::logic_error);
    EXPECT_THROW((void)pool_problem(x, make(Shape{2, 3, 4, 4}, DType::f32), Pool2dGeometry{2, 0, 0},
                                    PoolKind::average),
                 std::logic_error);
}

// cuDNN documents the pooling output as 1 + (in + 2 padding - window) / stride (integer
// division); the engine and the CPU backend use conv_output_extent. They agree whenever the
// window fits; where it does not, the engine says 0 and cuDNN's truncating division may
// say 1, which the output-extent check turns into an error instead of a wrong result.
TEST_F(TensorProblems, CudnnPoolingExtentFormulaAgreesWithTheEnginesFloor) {
    for (int in = 1; in <= 20; ++in) {
        for (int window = 1; window <= 5; ++window) {
            for (int stride = 1; stride <= 3; ++stride) {
                for (int padding = 0; padding < window; ++padding) {
                    const int span = in + 2 * padding - window;
                    if (span < 0) {
                        continue;
                    }
                    EXPECT_EQ(conv_output_extent(in, window, stride, padding), 1 + span / stride)
                        << in << " " << window << " " << stride << " " << padding;
                }
            }
        }
    }
}

TEST_F(TensorProblems, OutputExtentCheckNamesBothExtents) {
    const PoolProblem p =
        pool_problem(make(Shape{2, 3, 7, 7}, DType::f32), make(Shape{2, 3, 3, 3}, DType::f32),
                     Pool2dGeometry{2, 2, 0}, PoolKind::max);
    EXPECT_EQ(pool_extent_mismatch(p, 3, 3), "");
    EXPECT_EQ(pool_extent_mismatch(p, 4, 3),
              "cuda backend: pool: cuDNN computes a 4x3 output for a 7x7 input (window 2, "
              "stride 2, padding 0) but the engine allocated 3x3");
}

TEST_F(TensorProblems, ActivationViewsEveryRankAsNchw) {
    const Tensor image = make(Shape{2, 3, 4, 5}, DType::f32);
    const ActivationProblem a = activation_problem(image, image, "relu");
    EXPECT_EQ((std::vector<int>{a.n, a.c, a.h, a.w}), (std::vector<int>{2, 3, 4, 5}));
    const Tensor rows = make(Shape{6, 10}, DType::f16);
    const ActivationProblem b = activation_problem(rows, rows, "relu");
    EXPECT_EQ((std::vector<int>{b.n, b.c, b.h, b.w}), (std::vector<int>{6, 10, 1, 1}));
    const Tensor flat = make(Shape{2, 3, 4}, DType::f64);
    const ActivationProblem c = activation_problem(flat, flat, "relu");
    EXPECT_EQ((std::vector<int>{c.n, c.c, c.h, c.w}), (std::vector<int>{24, 1, 1, 1}));
    EXPECT_THROW((void)activation_problem(image, make(Shape{2, 3, 4, 5}, DType::f16), "relu"),
                 std::logic_error);
    EXPECT_THROW((void)activation_problem(image, make(Shape{2, 3, 4, 4}, DType::f32), "relu"),
                 std::logic_error);
}

}  // namespace
}  // namespace trainscope::workloads::cuda
