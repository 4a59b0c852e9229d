#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/LibraryError.hpp"

namespace trainscope::workloads {

// Everything that calls the CUDA libraries — the CUDA backend, its allocators and kernels,
// device discovery through the runtime, the CUPTI tracer, the NCCL communicator — lives in
// one shared library, the CUDA module. The program links none of the CUDA libraries: mapped
// with their dependencies they cost 170-230 MB of resident memory before `main`, which the
// CPU-only commands (import, analyze, report, export, ...) must not pay. The CPU-side code
// reaches the module through a few extern "C" entry points, each returning a table of
// factory functions (workloads/backends/cuda/CudaModuleApi.hpp,
// profiler/cupti/CuptiModuleApi.hpp), and loads it on the first call.
inline constexpr char kCudaModuleFile[] = "libtrainscope_cuda.so";
// Names a module file to load instead of looking for one (tests; a relocated install).
inline constexpr char kCudaModuleEnvironment[] = "TRAINSCOPE_CUDA_MODULE";

// The module could not be loaded (library "dlopen": the call names the module's path, the
// message is dlerror()'s — most often a CUDA library it needs is missing — and what to do)
// or lacks an entry point (library "dlsym").
class CudaModuleError : public LibraryError {
  public:
    using LibraryError::LibraryError;
};

// Where the module is looked for, in order: $TRAINSCOPE_CUDA_MODULE when set (then only
// there); beside the program (the build tree's bin/); the program's ../lib/trainscope/ (the
// install layout); the build tree's bin/ (tests and benchmarks built elsewhere in it).
std::vector<std::filesystem::path> cuda_module_candidates();

// Loads the module at `path` (never unloaded: the CUDA libraries keep process-wide state).
// Throws CudaModuleError with dlerror()'s text. Each call loads anew; use cuda_module_symbol.
void* open_cuda_module(const std::filesystem::path& path);

// The address of one of the module's entry points, loading the module on the first call
// (a module the program already links, as GPU tests do, is used as it is). The outcome of
// the first load is kept: a module that failed to load fails every call the same way.
// Throws CudaModuleError. Thread-safe.
void* cuda_module_symbol(const char* symbol);

// The table of functions an entry point `const Api* entry()` returns.
template <class Api>
const Api& cuda_module_api(const char* entry_symbol) {
    using Entry = const Api* (*)();
    const auto entry = reinterpret_cast<Entry>(cuda_module_symbol(entry_symbol));
    return *entry();
}

// Whether the NVIDIA driver's libcuda.so.1 can be loaded. The probe the CUDA runtime would
// make, without loading the runtime (or the module): a machine without a driver says so in
// microseconds. The handle is closed again.
bool nvidia_driver_installed();

}  // namespace trainscope::workloads
