#pragma once

#include "workloads/backends/cuda/kernels/ChannelReductionMath.hpp"

// Device halves of ChannelReductionMath.hpp's summation order, for the .cu files of the
// per-channel reductions: the block's tree (shared memory down to one warp, then
// shuffles with the same pairing) and the warp's ordered sum of a channel's slice values.
namespace trainscope::workloads::cuda::kernels {

constexpr unsigned int kFullWarp = 0xffffffffu;

// math::tree_sum over one warp's 32 values; the total in every lane. Lane t adds lane
// t + offset, the host tree's pairing.
template <typename Acc>
__device__ inline Acc warp_tree_sum(Acc value) {
    for (int offset = math::kCombineLanes / 2; offset > 0; offset /= 2) {
        value += __shfl_down_sync(kFullWarp, value, offset);
    }
    return __shfl_sync(kFullWarp, value, 0);
}

// math::tree_sum over the math::kSliceThreads threads of a block; the total in every
// thread. `shared` holds kSliceThreads values and may be reused after the call.
template <typename Acc>
__device__ inline Acc block_tree_sum(Acc value, Acc* shared) {
    shared[threadIdx.x] = value;
    __syncthreads();
    for (unsigned int half = math::kSliceThreads / 2; half >= math::kCombineLanes; half /= 2) {
        if (threadIdx.x < half) {
            shared[threadIdx.x] += shared[threadIdx.x + half];
        }
        __syncthreads();
    }
    if (threadIdx.x < math::kCombineLanes) {
        shared[threadIdx.x] = warp_tree_sum(shared[threadIdx.x]);
    }
    __syncthreads();
    const Acc total = shared[0];
    __syncthreads();  // shared is reused by the caller's next reduction
    return total;
}

// math::lane_ordered_sum in one warp (threadIdx.x < 32): the total in every lane.
template <typename Acc, typename Value>
__device__ inline Acc warp_ordered_sum(long long count, const Value& value) {
    Acc sum = 0;
    for (long long s = threadIdx.x; s < count; s += math::kCombineLanes) {
        sum += value(s);
    }
    return warp_tree_sum(sum);
}

}  // namespace trainscope::workloads::cuda::kernels
