// The CUDA module seen from a program that does not link it, as `trainscope` does not: it
// is loaded on the first use of the CUDA side, never before, and a module that cannot be
// loaded is an error naming it and saying why. No GPU needed.
#include <cuda_runtime_api.h>  // CUDART_VERSION
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "profiler/cupti/CuptiModuleApi.hpp"
#include "workloads/backend/BackendRegistry.hpp"
#include "workloads/backends/cuda/CudaModuleApi.hpp"
#include "workloads/devices/CudaModule.hpp"
#include "workloads/devices/DeviceQuery.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {
namespace {

bool mapped(const std::string& library) {
    std::ifstream maps("/proc/self/maps");
    std::stringstream text;
    text << maps.rdbuf();
    return text.str().find(library) != std::string::npos;
}

// Declared first: gtest runs a file's tests in order, and the module, once loaded, stays.
TEST(CudaModule, DeviceQueryWithoutADriverLoadsNothing) {
    if (nvidia_driver_installed()) {
        GTEST_SKIP() << "this machine has an NVIDIA driver: the query loads the module";
    }
    if (mapped(kCudaModuleFile)) {
        GTEST_SKIP() << "an earlier test in this process loaded the module";
    }
    const DeviceInventory inventory = query_cuda_devices();
    EXPECT_TRUE(inventory.cuda_built);
    EXPECT_TRUE(inventory.devices.empty());
    EXPECT_EQ(inventory.status, "no NVIDIA driver is installed (libcuda not found)");
    EXPECT_EQ(inventory.runtime_version, CUDART_VERSION);
    EXPECT_FALSE(mapped(kCudaModuleFile));
    EXPECT_FALSE(mapped("libcudnn"));
    EXPECT_FALSE(mapped("libcudart"));
}

TEST(CudaModule, TheCudaBackendLoadsTheModuleOnFirstUse) {
    const bool before = mapped(kCudaModuleFile);
    try {
        (void)create_backend("cuda", BackendOptions{});
    } catch (const ConfigError& error) {
        // No device here: the module's own refusal, as when it was linked in.
        EXPECT_NE(std::string(error.what()).find("backend: cuda cannot run here"),
                  std::string::npos)
            << error.what();
    }
    EXPECT_FALSE(before) << "the module was mapped before any use of the CUDA side";
    EXPECT_TRUE(mapped(kCudaModuleFile));
    EXPECT_TRUE(mapped("libcudnn"));
    EXPECT_TRUE(mapped("libnccl"));
}

TEST(CudaModule, HasTheEntryPointsTheProgramCalls) {
    EXPECT_NE(cuda_module_symbol(kCudaWorkloadsApiSymbol), nullptr);
    EXPECT_NE(cuda_module_symbol(profiler::kCuptiModuleApiSymbol), nullptr);
    const CudaWorkloadsApi& api = cuda_workloads_api();
    EXPECT_NE(api.query_devices, nullptr);
    EXPECT_NE(api.make_backend, nullptr);
    EXPECT_NE(api.make_nccl_communicator, nullptr);
    // The module's own answer agrees with the CPU side's on this machine.
    EXPECT_EQ(api.query_devices().devices.size(), query_cuda_devices().devices.size());
    try {
        cuda_module_symbol("trainscope_no_such_entry");
        FAIL() << "found an entry point the module does not have";
    } catch (const CudaModuleError& error) {
        EXPECT_NE(std::string(error.what()).find("trainscope_no_such_entry"), std::string::npos)
            << error.what();
    }
}

TEST(CudaModule, AMissingModuleIsAnErrorNamingItAndWhy) {
    const std::filesystem::path missing = "/nonexistent-folder/libtrainscope_cuda.so";
    try {
        open_cuda_module(missing);
        FAIL() << "loaded a module that does not exist";
    } catch (const CudaModuleError& error) {
        const std::string message = error.what();
        EXPECT_EQ(error.library(), "dlopen");
        EXPECT_NE(message.find(missing.string()), std::string::npos) << message;
        EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
        EXPECT_NE(message.find("--backend cpu"), std::string::npos) << message;
    }
}

TEST(CudaModule, AFileThatIsNoLibraryIsAnErrorWithTheLoadersWords) {
    const std::filesystem::path fake =
        std::filesystem::temp_directory_path() / "trainscope-not-a-module.so";
    std::ofstream(fake) << std::string(256, 'x');  // longer than an ELF header
    try {
        open_cuda_module(fake);
        FAIL() << "loaded a text file as the module";
    } catch (const CudaModuleError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find(fake.string()), std::string::npos) << message;
        EXPECT_NE(message.find(error.library_message()), std::string::npos) << message;
        EXPECT_NE(error.library_message().find("ELF"), std::string::npos) << message;
    }
    std::filesystem::remove(fake);
}

}  // namespace
}  // namespace trainscope::workloads
