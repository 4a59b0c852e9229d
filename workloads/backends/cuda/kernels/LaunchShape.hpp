#pragma once

#include <algorithm>
#include <cstdint>

#include "workloads/backends/cuda/GpuCheck.hpp"
#include "workloads/backends/cuda/kernels/ChannelReductionMath.hpp"

namespace trainscope::workloads::cuda::kernels {

constexpr int kThreadsPerBlock = 256;

// Blocks for a grid-stride loop over `count` elements; capped because the loop covers
// the rest and a grid dimension is limited.
inline unsigned int blocks_for(std::int64_t count) {
    const std::int64_t blocks = (count + kThreadsPerBlock - 1) / kThreadsPerBlock;
    return static_cast<unsigned int>(std::clamp<std::int64_t>(blocks, 1, 65535 * 16));
}

// The grid stride of a grid-stride loop over `count` elements.
inline std::int64_t grid_stride_for(std::int64_t count) {
    return static_cast<std::int64_t>(blocks_for(count)) * kThreadsPerBlock;
}

// Runs body(index) with a zero of the index type a kernel walks `elements` with:
// std::uint32_t when 32-bit indices reach them plus one `stride` past the end (cheaper
// address math, half the registers), std::uint64_t otherwise.
template <typename Body>
void with_index_type(std::int64_t elements, std::int64_t stride, const Body& body) {
    if (math::fits_32_bit_indices(elements, stride)) {
        body(std::uint32_t{0});
    } else {
        body(std::uint64_t{0});
    }
}

}  // namespace trainscope::workloads::cuda::kernels

// Checks the launch itself (bad configuration); faults inside the kernel surface at the
// next synchronizing call.
#define TS_CUDA_CHECK_LAUNCH() TS_CUDA_CHECK(cudaGetLastError())
