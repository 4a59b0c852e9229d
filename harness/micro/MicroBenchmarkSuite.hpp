#pragma once

#include <string>
#include <vector>

#include "workloads/backend/BackendKind.hpp"
#include "workloads/numerics/Precision.hpp"

namespace trainscope::harness {

// What one registered microbenchmark measures, so that its result can be stored as a run
// with proper axes (op, shape, precision, backend).
struct MicroBenchmarkInfo {
    std::string name;       // Google Benchmark name: "conv2d_forward/fp32/seed-cnn"
    std::string op;         // "conv2d_forward"
    std::string shape;      // "n64 c1 h28 w28 k32 r3 pad0"
    std::string precision;  // "fp32", "tf32", "fp64"
    std::string backend;    // "cpu" or "cuda"
};

// Registers with Google Benchmark the backend ops training spends its time in —
// convolution (forward, backward data, backward filter), GEMM, ReLU, max pooling, batch
// norm, Adam — at the shapes of the models, for each precision, through the Backend
// interface (so the same code measures the CPU and the CUDA backend). Each reports
// items/s and, for convolution and GEMM, a FLOP/s counter.
std::vector<MicroBenchmarkInfo> register_micro_benchmarks(
    workloads::BackendKind backend, const std::vector<workloads::Precision>& precisions,
    int threads);

}  // namespace trainscope::harness
