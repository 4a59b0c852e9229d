#pragma once

#include <string>

namespace trainscope::profiler::detail {

// "_Z9saxpy_gpuifPfS_" -> "saxpy_gpu(int, float*, float*)"; names that are not
// Itanium-mangled (already demangled, extern "C") come back unchanged.
std::string demangle_kernel_name(const char* name);

}  // namespace trainscope::profiler::detail
