#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <cupti.h>
#include <gtest/gtest.h>

// These queries need no GPU: they prove the build links the libraries it was compiled
// against (a mismatch between headers and shared libraries shows here first).
namespace {

TEST(CudaLibraries, CudnnVersionMatchesTheHeaders) {
    EXPECT_EQ(cudnnGetVersion(), static_cast<std::size_t>(CUDNN_VERSION));
    EXPECT_GE(cudnnGetVersion(), 90000u);
}

TEST(CudaLibraries, CublasVersionMatchesTheHeaders) {
    int major = 0;
    int minor = 0;
    ASSERT_EQ(cublasGetProperty(MAJOR_VERSION, &major), CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(cublasGetProperty(MINOR_VERSION, &minor), CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(major, CUBLAS_VER_MAJOR);
    EXPECT_EQ(minor, CUBLAS_VER_MINOR);
}

TEST(CudaLibraries, CuptiReportsItsApiVersion) {
    uint32_t version = 0;
    ASSERT_EQ(cuptiGetVersion(&version), CUPTI_SUCCESS);
    EXPECT_EQ(version, static_cast<uint32_t>(CUPTI_API_VERSION));
}

TEST(CudaLibraries, RuntimeVersionMatchesTheHeaders) {
    int runtime = 0;
    ASSERT_EQ(cudaRuntimeGetVersion(&runtime), cudaSuccess);
    EXPECT_EQ(runtime, CUDART_VERSION);
}

}  // namespace
