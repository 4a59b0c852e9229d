#pragma once

#include <algorithm>
#include <cstdint>

#include "workloads/backends/cuda/GpuCheck.hpp"

namespace trainscope::workloads::cuda::kernels {

constexpr int kThreadsPerBlock = 256;

// Blocks for a grid-stride loop over `count` elements; capped because the loop covers
// the rest and a grid dimension is limited.
inline unsigned int blocks_for(std::int64_t count) {
    const std::int64_t blocks = (count + kThreadsPerBlock - 1) / kThreadsPerBlock;
    return static_cast<unsigned int>(std::clamp<std::int64_t>(blocks, 1, 65535 * 16));
}

}  // namespace trainscope::workloads::cuda::kernels

// Checks the launch itself (bad configuration); faults inside the kernel surface at the
// next synchronizing call.
#define TS_CUDA_CHECK_LAUNCH() TS_CUDA_CHECK(cudaGetLastError())
