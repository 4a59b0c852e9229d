#include "workloads/devices/CudaModule.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <exception>
#include <mutex>
#include <system_error>

namespace trainscope::workloads {
namespace {

std::string dlerror_text() {
    const char* error = dlerror();
    return error != nullptr ? error : "unknown dlopen error";
}

[[noreturn]] void throw_module_error(int line, const std::string& call, const std::string& why) {
    throw CudaModuleError("dlopen", __FILE__, line, call,
                          why +
                              "; the CUDA backend, CUPTI and NCCL live in this module: install "
                              "the CUDA 13 libraries it needs (`ldd` on the module lists "
                              "them), or train with --backend cpu",
                          0);
}

struct LoadedModule {
    void* handle = nullptr;
    std::string call;  // how it was loaded, for the error of a missing entry point
};

LoadedModule load_module() {
    LoadedModule module;
    // Already in the process: a test executable links the module directly.
    dlerror();
    module.handle = dlopen(kCudaModuleFile, RTLD_NOW | RTLD_NOLOAD);
    if (module.handle != nullptr) {
        module.call = std::string("dlopen(\"") + kCudaModuleFile + "\", RTLD_NOLOAD)";
        return module;
    }
    const std::vector<std::filesystem::path> candidates = cuda_module_candidates();
    for (const std::filesystem::path& candidate : candidates) {
        std::error_code ec;
        if (candidates.size() == 1 || std::filesystem::exists(candidate, ec)) {
            module.handle = open_cuda_module(candidate);
            module.call = "dlopen(\"" + candidate.string() + "\")";
            return module;
        }
    }
    std::string where;
    for (const std::filesystem::path& candidate : candidates) {
        where += (where.empty() ? "" : ", ") + candidate.string();
    }
    throw_module_error(__LINE__, std::string("dlopen(\"") + kCudaModuleFile + "\")",
                       std::string("the CUDA module was not found (looked for ") + where +
                           "; set " + kCudaModuleEnvironment + " to its path)");
}

}  // namespace

std::vector<std::filesystem::path> cuda_module_candidates() {
    const char* chosen = std::getenv(kCudaModuleEnvironment);
    if (chosen != nullptr && *chosen != '\0') {
        return {std::filesystem::path(chosen)};
    }
    std::error_code ec;
    const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) {
        return {std::filesystem::path(TRAINSCOPE_CUDA_MODULE_BUILT)};
    }
    const std::filesystem::path folder = program.parent_path();
    return {folder / kCudaModuleFile, folder.parent_path() / "lib" / "trainscope" / kCudaModuleFile,
            // The build tree's, for the programs built beside it (tests, benchmarks).
            std::filesystem::path(TRAINSCOPE_CUDA_MODULE_BUILT)};
}

void* open_cuda_module(const std::filesystem::path& path) {
    dlerror();
    // RTLD_NOW: a CUDA library the module needs that is missing fails here, with its name,
    // rather than at the first call into it. Never closed.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        throw_module_error(__LINE__, "dlopen(\"" + path.string() + "\")", dlerror_text());
    }
    return handle;
}

void* cuda_module_symbol(const char* symbol) {
    static std::once_flag once;
    static LoadedModule module;
    static std::exception_ptr failure;
    std::call_once(once, [] {
        try {
            module = load_module();
        } catch (const CudaModuleError&) {
            failure = std::current_exception();
        }
    });
    if (failure) {
        std::rethrow_exception(failure);
    }
    dlerror();
    void* address = dlsym(module.handle, symbol);
    if (address == nullptr) {
        throw CudaModuleError(
            "dlsym", __FILE__, __LINE__, "dlsym(" + module.call + ", \"" + symbol + "\")",
            dlerror_text() + " (a CUDA module from another trainscope build?)", 0);
    }
    return address;
}

bool nvidia_driver_installed() {
    void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (driver == nullptr) {
        return false;
    }
    dlclose(driver);
    return true;
}

}  // namespace trainscope::workloads
