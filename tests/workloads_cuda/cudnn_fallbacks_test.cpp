// The rule that sends pooling and ReLU to the own kernels when cuDNN refuses an (op, dtype):
// which statuses count as "not supported", that the decision is kept, and what the run's
// environment says. No device needed.
#include <gtest/gtest.h>

#include "workloads/backends/cuda/CudnnFallbacks.hpp"
#include "workloads/backends/cuda/GpuCheck.hpp"

namespace trainscope::workloads::cuda {
namespace {

TEST(CudnnFallbacks, EverythingRunsOnCudnnUntilRefused) {
    const CudnnFallbacks fallbacks;
    EXPECT_TRUE(fallbacks.use_cudnn("max_pool_forward", DType::f32));
    EXPECT_TRUE(fallbacks.use_cudnn("max_pool_forward", DType::bf16));
    EXPECT_EQ(fallbacks.describe(), "cudnn");
}

TEST(CudnnFallbacks, ARefusalIsKeptForThatOpAndDtypeOnly) {
    CudnnFallbacks fallbacks;
    fallbacks.record_not_supported("max_pool_forward", DType::bf16,
                                   "CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE");
    EXPECT_FALSE(fallbacks.use_cudnn("max_pool_forward", DType::bf16));
    EXPECT_TRUE(fallbacks.use_cudnn("max_pool_forward", DType::f16));
    EXPECT_TRUE(fallbacks.use_cudnn("max_pool_backward", DType::bf16));
    // A second refusal of the same pair changes nothing.
    fallbacks.record_not_supported("max_pool_forward", DType::bf16, "CUDNN_STATUS_NOT_SUPPORTED");
    EXPECT_EQ(fallbacks.describe(),
              "cudnn; own kernels (cuDNN: CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE for bf16 "
              "max_pool_forward)");
}

TEST(CudnnFallbacks, SeveralRefusalsAreListed) {
    CudnnFallbacks fallbacks;
    fallbacks.record_not_supported("relu_forward", DType::bf16, "CUDNN_STATUS_NOT_SUPPORTED");
    fallbacks.record_not_supported("relu_backward", DType::bf16, "CUDNN_STATUS_NOT_SUPPORTED");
    EXPECT_EQ(fallbacks.describe(),
              "cudnn; own kernels (cuDNN: CUDNN_STATUS_NOT_SUPPORTED for bf16 relu_backward, "
              "CUDNN_STATUS_NOT_SUPPORTED for bf16 relu_forward)");
}

TEST(CudnnFallbacks, OnlyTheNotSupportedCategoryFallsBack) {
    EXPECT_TRUE(cudnn_not_supported(CUDNN_STATUS_NOT_SUPPORTED));
    EXPECT_TRUE(cudnn_not_supported(CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE));
    EXPECT_TRUE(cudnn_not_supported(CUDNN_STATUS_NOT_SUPPORTED_SHAPE));
    EXPECT_FALSE(cudnn_not_supported(CUDNN_STATUS_SUCCESS));
    EXPECT_FALSE(cudnn_not_supported(CUDNN_STATUS_BAD_PARAM));
    EXPECT_FALSE(cudnn_not_supported(CUDNN_STATUS_EXECUTION_FAILED));
}

TEST(CudnnFallbacks, SupportedCheckReturnsRefusalsAndThrowsTheRest) {
    EXPECT_EQ(TS_CUDNN_CHECK_SUPPORTED(CUDNN_STATUS_SUCCESS), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(TS_CUDNN_CHECK_SUPPORTED(CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE),
              CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE);
    EXPECT_THROW((void)TS_CUDNN_CHECK_SUPPORTED(CUDNN_STATUS_BAD_PARAM), CudnnError);
}

}  // namespace
}  // namespace trainscope::workloads::cuda
