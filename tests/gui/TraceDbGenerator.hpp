#pragma once

#include <cstdint>
#include <filesystem>

#include "profiler/trace/Trace.hpp"

namespace trainscope::gui::testing {

struct TraceShape {
    std::int64_t kernels = 20000;  // GPU kernels in the trace (exactly)
    double speed = 1.0;            // kernel durations are divided by this
    std::uint64_t seed = 1;
};

// A trace shaped like a CNN training run captured with CUPTI + NVTX + NVML: one GPU
// with a compute stream, a side stream and copy streams; the main thread's runtime API
// calls correlated to their GPU work; a data-loader thread; NVTX epoch > step >
// forward/backward/optimizer; conv/gemm/elementwise/reduction/optimizer kernels,
// memcpy and memset; counters gpu_utilization [%], memory_used [bytes], power [W].
profiler::Trace makeTrace(const TraceShape& shape);

struct DatabaseShape {
    std::int64_t main_kernels = 20000;  // the first run's trace
    std::int64_t other_kernels = 3000;  // every other ok run's trace (0: no trace)
    std::uint64_t seed = 1;
};

// Removes a database file and its WAL and shared-memory files, if they exist.
void removeDatabase(const std::filesystem::path& path);

// Writes a results database (replacing the file) with a small matrix:
// precision {fp32, tf32, fp16, bf16} x batch {32, 64, 128, 256}, one failed cell.
// Returns the id of the run that carries the main trace.
std::int64_t writeDatabase(const std::filesystem::path& path, const DatabaseShape& shape);

}  // namespace trainscope::gui::testing
