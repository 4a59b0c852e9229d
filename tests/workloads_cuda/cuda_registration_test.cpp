#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {
namespace {

TEST(CudaRegistration, CudaBuildRegistersTheCudaBackend) {
    EXPECT_TRUE(backend_registered("cuda"));
    EXPECT_TRUE(backend_registered("cpu"));
}

TEST(CudaRegistration, UnsupportedOptionIsAConfigErrorBeforeAnyDeviceWork) {
    BackendOptions options;
    options.placement = Placement::resident;
    EXPECT_THROW(create_backend("cuda", options), ConfigError);
}

TEST(CudaRegistration, WithoutADeviceCreationSaysSoPlainly) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    cudaGetLastError();
    if (status == cudaSuccess && count > 0) {
        GTEST_SKIP() << "a CUDA device is present: this checks the refusal without one";
    }
    try {
        create_backend("cuda", BackendOptions{});
        FAIL() << "created a CUDA backend without a device";
    } catch (const ConfigError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("backend: cuda cannot run here"), std::string::npos) << message;
        EXPECT_NE(message.find("backend=cpu"), std::string::npos) << message;
    }
}

}  // namespace
}  // namespace trainscope::workloads
