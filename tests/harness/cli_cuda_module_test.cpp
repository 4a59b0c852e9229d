// The program's memory floor: CPU-only commands load no CUDA library (cuDNN, cuBLAS, NCCL,
// the runtime, CUPTI) and not the CUDA module that links them, which together map about
// 200 MB before `main`. The dynamic loader says what it loads (LD_DEBUG=libs: one
// "calling init: <path>" line per library), so each command is run under it.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "TempDir.hpp"

namespace trainscope {
namespace {

const std::string kTraces = std::string(TRAINSCOPE_SHARED_DIR) + "/traces";

// The libraries the loader initialised while `arguments` ran (the program, and any child
// it started: LD_DEBUG is inherited).
std::vector<std::string> loaded_libraries(const std::string& arguments, int& exit_code,
                                          std::string& output,
                                          const std::string& environment = "") {
    const std::string command =
        environment + " LD_DEBUG=libs " + std::string(TRAINSCOPE_CLI) + " " + arguments + " 2>&1";
    output.clear();
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) {
        exit_code = -1;
        return {};
    }
    std::array<char, 4096> buffer{};
    while (fgets(buffer.data(), buffer.size(), pipe) != nullptr) {
        output += buffer.data();
    }
    const int status = pclose(pipe);
    exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::vector<std::string> libraries;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        const auto at = line.find("calling init: ");
        if (at != std::string::npos) {
            libraries.push_back(line.substr(at + 14));
        }
    }
    return libraries;
}

// The CUDA libraries by the start of their file names, and the module itself.
std::vector<std::string> cuda_libraries_in(const std::vector<std::string>& libraries) {
    std::vector<std::string> found;
    for (const std::string& path : libraries) {
        const std::string name = path.substr(path.rfind('/') + 1);
        for (const char* cuda : {"libcuda.so", "libcudart", "libcublas", "libcudnn", "libnccl",
                                 "libcupti", "libnvrtc", "libtrainscope_cuda"}) {
            if (name.rfind(cuda, 0) == 0) {
                found.push_back(path);
            }
        }
    }
    return found;
}

std::string joined(const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) {
        text += item + "\n";
    }
    return text;
}

void expect_no_cuda_library(const std::string& arguments) {
    int exit_code = -1;
    std::string output;
    const std::vector<std::string> libraries = loaded_libraries(arguments, exit_code, output);
    EXPECT_EQ(exit_code, 0) << output.substr(output.size() -
                                             std::min<std::size_t>(output.size(), 4000));
    // The loader did report: the program's own dependencies are there.
    ASSERT_FALSE(libraries.empty()) << "LD_DEBUG=libs printed no library:\n" << output;
    bool sqlite = false;
    for (const std::string& path : libraries) {
        sqlite = sqlite || path.find("libsqlite3") != std::string::npos;
    }
    EXPECT_TRUE(sqlite) << "libsqlite3 not among the loaded libraries:\n" << joined(libraries);
    EXPECT_EQ(joined(cuda_libraries_in(libraries)), "") << "trainscope " << arguments;
}

bool driver_installed() {
    void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (driver != nullptr) {
        dlclose(driver);
    }
    return driver != nullptr;
}

TEST(CliCudaModule, VersionLoadsNoCudaLibrary) {
    expect_no_cuda_library("--version");
}

TEST(CliCudaModule, ImportOfASharedTraceLoadsNoCudaLibrary) {
    testing::TempDir dir;
    expect_no_cuda_library("import " + kTraces + "/kineto/h100_bert_small_inference.json.gz -o " +
                           (dir / "t.db").string());
}

TEST(CliCudaModule, CpuRunWithoutADriverLoadsNoCudaLibrary) {
    if (driver_installed()) {
        GTEST_SKIP() << "this machine has an NVIDIA driver: auto picks CUDA when it finds a GPU";
    }
    testing::TempDir dir;
    // The matrix process and the cell's child process both.
    expect_no_cuda_library(
        "run --backend auto --dataset synthetic --input 1x8x8 --trace off --steps 1 --warmup 0 "
        "--batch 4 -q --out " +
        (dir / "r.db").string());
    expect_no_cuda_library("list devices");
}

TEST(CliCudaModule, CudaCellWithoutADriverIsRefusedAsBeforeWithoutLoadingCuda) {
    if (driver_installed()) {
        GTEST_SKIP() << "this machine has an NVIDIA driver";
    }
    testing::TempDir dir;
    int exit_code = -1;
    std::string output;
    const std::vector<std::string> libraries = loaded_libraries(
        "run --backend cuda --steps 2 --out " + (dir / "r.db").string(), exit_code, output);
    EXPECT_EQ(exit_code, 2) << output;
#if defined(TRAINSCOPE_CUDA_BUILD)
    const std::string refusal = "no NVIDIA driver is installed (libcuda not found)";
#else  // a CPU-only build (TRAINSCOPE_CUDA=OFF) refuses before any driver probe
    const std::string refusal = "this trainscope was built without CUDA (TRAINSCOPE_CUDA=OFF)";
#endif
    EXPECT_NE(output.find("trainscope: error: --backend cuda: " + refusal +
                          "; use --backend cpu (or auto) to train on the CPU"),
              std::string::npos)
        << output;
    EXPECT_EQ(joined(cuda_libraries_in(libraries)), "");
}

#if defined(TRAINSCOPE_FAKE_DRIVER_DIR)
// A libcuda.so.1 that does nothing (fake_libcuda.cpp) passes the driver probe: the module
// is then loaded, and the runtime in it finds no usable driver.
const std::string kFakeDriver = std::string("LD_LIBRARY_PATH=") + TRAINSCOPE_FAKE_DRIVER_DIR;

TEST(CliCudaModule, WithADriverTheModuleIsLoadedAndAnswers) {
    int exit_code = -1;
    std::string output;
    const std::vector<std::string> libraries =
        loaded_libraries("list devices", exit_code, output, kFakeDriver);
    EXPECT_EQ(exit_code, 0) << output;
    const std::string cuda = joined(cuda_libraries_in(libraries));
    EXPECT_NE(cuda.find("libtrainscope_cuda.so"), std::string::npos) << cuda;
    EXPECT_NE(cuda.find("libcublasLt"), std::string::npos) << cuda;
    EXPECT_NE(output.find("cuda  none: no NVIDIA driver is installed (libcuda not found)"),
              std::string::npos)
        << output;
}

TEST(CliCudaModule, AModuleThatCannotBeLoadedIsNamedWithTheLoadersWords) {
    testing::TempDir dir;
    const std::string missing = (dir / "no-such-folder" / "libtrainscope_cuda.so").string();
    int exit_code = -1;
    std::string output;
    loaded_libraries("run --backend cuda --steps 1 --out " + (dir / "r.db").string(), exit_code,
                     output, kFakeDriver + " TRAINSCOPE_CUDA_MODULE=" + missing);
    EXPECT_EQ(exit_code, 2) << output;
    EXPECT_NE(output.find("the CUDA module cannot be loaded: dlopen call `dlopen(\"" + missing),
              std::string::npos)
        << output;
    EXPECT_NE(output.find("cannot open shared object file: No such file or directory"),
              std::string::npos)
        << output;
    EXPECT_NE(output.find("use --backend cpu"), std::string::npos) << output;
    EXPECT_FALSE(std::filesystem::exists(dir / "r.db"));
}
#endif

}  // namespace
}  // namespace trainscope
