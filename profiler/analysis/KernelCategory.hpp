#pragma once

#include <string_view>

#include "profiler/trace/ActivityKind.hpp"

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
    // Collectives: NCCL's kernels (ncclKernel_*, ncclDevKernel_* since NCCL 2.19), RCCL's,
    // and the CPU's MPI calls (ActivityKind::Collective).
    Communication = 8,
};

inline constexpr int kKernelCategoryCount = 9;

// Classifies by case-insensitive substrings, first match wins, in the order
// communication ("nccl", "rccl"), optimizer, normalization, convolution, gemm, reduction,
// elementwise; memcpy/memset names ("Memcpy HtoD", "Memset (Device)") give MemcpyMemset. A few of
// trainscope's backend op names (the CPU backend's device work: add_bias, convert, copy_h2d, ...)
// and of PyTorch's operators (aten::addmm, aten::mm: gemm; aten::clamp_min,
// aten::threshold_backward: ReLU, elementwise) are looked up by exact name first.
KernelCategory classify_kernel(std::string_view kernel_name);

std::string_view to_string(KernelCategory category);

// The category of one piece of device work: copies and sets by their kind, kernels (and
// the host ops of a CPU-backend trace) by name.
KernelCategory classify_work(ActivityKind kind, std::string_view name);

// True when the name says the kernel uses tensor cores (HMMA/WGMMA instructions,
// tensor-op CUTLASS/cuBLAS/cuDNN kernels); see docs/profiler.md for the patterns.
bool uses_tensor_cores(std::string_view kernel_name);

}  // namespace trainscope::profiler
