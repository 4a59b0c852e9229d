#pragma once

#include <string_view>

namespace trainscope::profiler {

// What a GPU kernel does, guessed from its (demangled) name; see docs/profiler.md for
// the patterns. Numeric values are stable (reports store them).
enum class KernelCategory : unsigned char {
    Convolution = 0,
    Gemm = 1,
    Elementwise = 2,
    Reduction = 3,
    Normalization = 4,
    Optimizer = 5,
    MemcpyMemset = 6,
    Other = 7,
};

inline constexpr int kKernelCategoryCount = 8;

// Classifies by case-insensitive substrings, first match wins, in the order
// optimizer, normalization, convolution, gemm, reduction, elementwise; memcpy/memset
// names ("Memcpy HtoD", "Memset (Device)") give MemcpyMemset.
KernelCategory classify_kernel(std::string_view kernel_name);

std::string_view to_string(KernelCategory category);

// True when the name says the kernel uses tensor cores (HMMA/WGMMA instructions,
// tensor-op CUTLASS/cuBLAS/cuDNN kernels); see docs/profiler.md for the patterns.
bool uses_tensor_cores(std::string_view kernel_name);

}  // namespace trainscope::profiler
