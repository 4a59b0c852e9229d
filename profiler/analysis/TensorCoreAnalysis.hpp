#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Kernels whose names say they run on tensor cores (see uses_tensor_cores), and their
// share of all kernel time (summed durations).
struct TensorCoreUsage {
    std::int64_t tensor_core_kernel_count = 0;
    std::int64_t tensor_core_ns = 0;
    std::int64_t kernel_count = 0;
    std::int64_t kernel_ns = 0;
    double share = 0.0;                     // tensor_core_ns / kernel_ns
    std::vector<std::string> kernel_names;  // distinct tensor-core kernel names, sorted
};

TensorCoreUsage analyze_tensor_core_usage(const Trace& trace);

}  // namespace trainscope::profiler
