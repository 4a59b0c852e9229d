// The CUDA module's static NVTX injection (compiled into libtrainscope_cuda.so only). NVTX
// keeps a hidden instance per shared object, so the module's NVTX calls (the CUDA
// backend's op ranges) have a loader of their own, which looks for the module's own
// InitializeInjectionNvtx2_fnptr. This one forwards to the host tracer's initializer in the
// program (NvtxInjection.cpp, trainscope_nvtx_initialize_injection), found with dlsym: the
// module's ranges then land in the same host tracer as the engine's.
#include <cstdint>

#define NVTX_STATIC_INJECTION_IMPL
extern "C" int (*InitializeInjectionNvtx2_fnptr)(const void* (*)(std::uint32_t));

#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>

namespace {

int NVTX_API forward_to_the_program(NvtxGetExportTableFunc_t table) {
    using Initialize = int(NVTX_API*)(NvtxGetExportTableFunc_t);
    // Absent from a program that does not export it (a test that links the module and
    // records no NVTX): NVTX in the module then stays a no-op, as without a tool.
    void* program = dlsym(RTLD_DEFAULT, "trainscope_nvtx_initialize_injection");
    if (program == nullptr)
        return 0;
    // dlsym returns object pointers; POSIX guarantees the conversion to a function pointer.
    return reinterpret_cast<Initialize>(program)(table);
}

}  // namespace

extern "C" {
NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr = &forward_to_the_program;
}
