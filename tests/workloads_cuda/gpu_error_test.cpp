#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "workloads/backends/cuda/GpuCheck.hpp"

namespace trainscope::workloads::cuda {
namespace {

cudaError_t invalid_value_call() {
    return cudaErrorInvalidValue;
}
cudaError_t succeeding_call() {
    return cudaSuccess;
}
cudnnStatus_t bad_param_call() {
    return CUDNN_STATUS_BAD_PARAM;
}
cublasStatus_t not_initialized_call() {
    return CUBLAS_STATUS_NOT_INITIALIZED;
}

// Expects `error` to name the library, the call, this file and line, the library's text
// and the code, in its message and in its fields.
void expect_describes(const LibraryError& error, const std::string& library,
                      const std::string& call, int line, const std::string& library_text,
                      int code) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind(library + " call ", 0), 0u) << message;
    EXPECT_NE(message.find("`" + call + "`"), std::string::npos) << message;
    EXPECT_NE(message.find(std::string("gpu_error_test.cpp:") + std::to_string(line)),
              std::string::npos)
        << message;
    EXPECT_NE(message.find(library_text), std::string::npos) << message;
    EXPECT_NE(message.find("(" + library + " code " + std::to_string(code) + ")"),
              std::string::npos)
        << message;
    EXPECT_EQ(error.library(), library);
    EXPECT_EQ(error.call(), call);
    EXPECT_NE(error.file().find("gpu_error_test.cpp"), std::string::npos) << error.file();
    EXPECT_EQ(error.line(), line);
    EXPECT_EQ(error.library_message(), library_text);
    EXPECT_EQ(error.code(), code);
}

TEST(GpuCheck, CudaFailureThrowsCudaErrorDescribingTheCall) {
    int line = 0;
    try {
        line = __LINE__ + 1;
        TS_CUDA_CHECK(invalid_value_call());
        FAIL() << "no exception";
    } catch (const CudaError& error) {
        EXPECT_EQ(error.code(), static_cast<int>(cudaErrorInvalidValue));
        expect_describes(error, "CUDA", "invalid_value_call()", line,
                         cudaGetErrorString(cudaErrorInvalidValue),
                         static_cast<int>(cudaErrorInvalidValue));
    }
}

TEST(GpuCheck, RealRuntimeFailureIsCaughtAsTheCommonBase) {
    // Device -1 never exists, with or without a driver.
    EXPECT_THROW(TS_CUDA_CHECK(cudaSetDevice(-1)), LibraryError);
    cudaGetLastError();
}

TEST(GpuCheck, SuccessDoesNotThrowAndEvaluatesOnce) {
    int calls = 0;
    TS_CUDA_CHECK((++calls, succeeding_call()));
    EXPECT_EQ(calls, 1);
}

TEST(GpuCheck, CudnnFailureThrowsCudnnError) {
    int line = 0;
    try {
        line = __LINE__ + 1;
        TS_CUDNN_CHECK(bad_param_call());
        FAIL() << "no exception";
    } catch (const CudnnError& error) {
        EXPECT_EQ(error.code(), static_cast<int>(CUDNN_STATUS_BAD_PARAM));
        expect_describes(error, "cuDNN", "bad_param_call()", line,
                         cudnnGetErrorString(CUDNN_STATUS_BAD_PARAM),
                         static_cast<int>(CUDNN_STATUS_BAD_PARAM));
    }
}

TEST(GpuCheck, CublasFailureThrowsCublasError) {
    int line = 0;
    try {
        line = __LINE__ + 1;
        TS_CUBLAS_CHECK(not_initialized_call());
        FAIL() << "no exception";
    } catch (const CublasError& error) {
        EXPECT_EQ(error.code(), static_cast<int>(CUBLAS_STATUS_NOT_INITIALIZED));
        expect_describes(error, "cuBLAS", "not_initialized_call()", line,
                         cublasGetStatusString(CUBLAS_STATUS_NOT_INITIALIZED),
                         static_cast<int>(CUBLAS_STATUS_NOT_INITIALIZED));
    }
}

TEST(GpuCheck, ErrorsShareOneBase) {
    EXPECT_THROW(TS_CUDNN_CHECK(bad_param_call()), LibraryError);
    EXPECT_THROW(TS_CUBLAS_CHECK(not_initialized_call()), LibraryError);
    EXPECT_THROW(TS_CUDA_CHECK(invalid_value_call()), std::runtime_error);
}

TEST(GpuCheck, NoexceptTwinsLogInsteadOfThrowing) {
    testing::internal::CaptureStderr();
    EXPECT_FALSE(TS_CUDA_CHECK_NOEXCEPT(invalid_value_call()));
    EXPECT_FALSE(TS_CUDNN_CHECK_NOEXCEPT(bad_param_call()));
    EXPECT_FALSE(TS_CUBLAS_CHECK_NOEXCEPT(not_initialized_call()));
    EXPECT_TRUE(TS_CUDA_CHECK_NOEXCEPT(succeeding_call()));
    const std::string log = testing::internal::GetCapturedStderr();
    EXPECT_NE(log.find("invalid_value_call()"), std::string::npos) << log;
    EXPECT_NE(log.find("bad_param_call()"), std::string::npos) << log;
    EXPECT_NE(log.find("not_initialized_call()"), std::string::npos) << log;
    EXPECT_NE(log.find(cudnnGetErrorString(CUDNN_STATUS_BAD_PARAM)), std::string::npos) << log;
    EXPECT_NE(log.find("gpu_error_test.cpp:"), std::string::npos) << log;
    EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 3) << "one line per failure: " << log;
}

}  // namespace
}  // namespace trainscope::workloads::cuda
