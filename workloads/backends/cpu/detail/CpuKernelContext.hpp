#pragma once

#include <vector>

#include "workloads/backends/cpu/AlignedBuffer.hpp"
#include "workloads/backends/cpu/ThreadPool.hpp"
#include "workloads/numerics/Precision.hpp"

namespace trainscope::workloads::cpu {

// What every CPU kernel may use: the workers, one scratch buffer per worker, one shared
// scratch buffer (filled before the parallel part) and the math mode.
struct KernelContext {
    ThreadPool& pool;
    std::vector<AlignedBuffer>& worker_scratch;
    AlignedBuffer& shared_scratch;
    AlignedBuffer& shared_scratch_2;
    MathMode math = MathMode::native;
};

// Below this many elements an elementwise kernel runs on the calling thread: waking
// workers costs more than the work.
inline constexpr std::int64_t kParallelElements = 1 << 15;

}  // namespace trainscope::workloads::cpu
