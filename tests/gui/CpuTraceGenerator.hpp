#pragma once

#include <cstdint>
#include <filesystem>
#include <utility>

#include "profiler/trace/Trace.hpp"

namespace trainscope::gui::testing {

struct CpuTraceShape {
    int steps = 20;
    int eval_batches = 8;
    double speed = 1.0;  // op durations are divided by this
    std::uint64_t seed = 1;
};

// A trace shaped exactly like `trainscope run --backend cpu --trace kernels` records
// for seed-cnn (profiler/host/HostTracer through harness/capture/CellCapture): one
// process whose main thread (thread id = process id) holds two lanes, "CPU · main
// thread" (HostThread, lane 0: the backend ops as HostOp at depth 0, no correlation,
// device -1) and "NVTX · main thread" (Nvtx, lane 1: epoch at depth 0 > step at 1 >
// data load/forward/backward/optimizer at 2, then evaluation at 0); set-up ops before
// the epoch; times relative to a steady-clock base; no counters; metadata
// source.format = host-nvtx.
profiler::Trace makeCpuTrace(const CpuTraceShape& shape);

// Writes a results database (replacing the file) with two traced CPU runs of seed-cnn,
// batch 32 and 64 (the second's ops take longer). Returns their ids.
std::pair<std::int64_t, std::int64_t> writeCpuDatabase(const std::filesystem::path& path,
                                                       int steps = 20);

}  // namespace trainscope::gui::testing
