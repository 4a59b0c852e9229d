#pragma once

#include <cstddef>
#include <cstdint>

#include "workloads/numerics/HostDevice.hpp"

// The kernel argument of this backend's multi-tensor kernels (PyTorch's
// multi_tensor_apply): up to kCapacity tensors, each with Depth addresses (parameter,
// gradient, moments...) and an element count, cut into chunks of kMultiTensorChunk
// elements, one block per chunk. The whole list travels by value in the launch's
// parameters (captured by value into a CUDA graph too), so no device table is built or
// kept. Plain C++ shared by the host, which fills it, and the kernels, which look their
// tensor up by block; the CPU tests cover both halves.
namespace trainscope::workloads::cuda::kernels {

// Elements one block covers: 256 threads x 8.
inline constexpr std::int64_t kMultiTensorChunk = 2048;
// The list's share of the 4 KB kernel-parameter space (the limit that holds on every
// toolkit and device), leaving the op its own arguments (at most 128 bytes).
inline constexpr std::size_t kTensorListBytes = 4096 - 128;
// A grid's x dimension.
inline constexpr std::uint32_t kMaxListBlocks = 0x7fffffffu;

template <int Depth>
struct TensorList {
    static constexpr int kCapacity =
        static_cast<int>((kTensorListBytes - 2 * sizeof(std::uint32_t)) /
                         (Depth * sizeof(void*) + sizeof(std::int64_t) + sizeof(std::uint32_t)));

    void* addresses[Depth][kCapacity];
    std::int64_t counts[kCapacity];
    // Tensor t owns blocks [first_block[t], first_block[t + 1]); first_block[tensors] is
    // the grid size.
    std::uint32_t first_block[kCapacity + 1] = {};
    int tensors = 0;

    std::uint32_t blocks() const { return first_block[tensors]; }
    void clear() { tensors = 0; }

    // Adds a tensor (no blocks for an empty one); false, changing nothing, when the list
    // is full and must be launched first.
    bool append(void* const (&tensor_addresses)[Depth], std::int64_t count) {
        if (count <= 0) {
            return true;
        }
        const std::int64_t chunks = (count + kMultiTensorChunk - 1) / kMultiTensorChunk;
        if (tensors == kCapacity ||
            chunks > static_cast<std::int64_t>(kMaxListBlocks - first_block[tensors])) {
            return false;
        }
        for (int d = 0; d < Depth; ++d) {
            addresses[d][tensors] = tensor_addresses[d];
        }
        counts[tensors] = count;
        first_block[tensors + 1] = first_block[tensors] + static_cast<std::uint32_t>(chunks);
        ++tensors;
        return true;
    }
};

static_assert(sizeof(TensorList<4>) <= kTensorListBytes &&
                  sizeof(TensorList<1>) <= kTensorListBytes,
              "a tensor list must fit the kernel-parameter space");

// The tensor that owns `block`: the last t with first_block[t] <= block (tensors > 0,
// block < first_block[tensors]); a binary search, so that a block finds its tensor in
// log2(kCapacity) steps.
TS_HD inline int tensor_of_block(const std::uint32_t* first_block, int tensors,
                                 std::uint32_t block) {
    int low = 0;
    int high = tensors - 1;
    while (low < high) {
        const int middle = (low + high + 1) / 2;
        if (first_block[middle] <= block) {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    return low;
}

// The elements [begin, begin + size) of its tensor that `block` of tensor t covers.
struct ChunkRange {
    std::int64_t begin;
    int size;
};

TS_HD inline ChunkRange chunk_of_block(std::uint32_t first_block_of_tensor, std::int64_t count,
                                       std::uint32_t block) {
    const std::int64_t begin =
        static_cast<std::int64_t>(block - first_block_of_tensor) * kMultiTensorChunk;
    const std::int64_t rest = count - begin;
    return {begin, static_cast<int>(rest < kMultiTensorChunk ? rest : kMultiTensorChunk)};
}

}  // namespace trainscope::workloads::cuda::kernels
