// The host half of the multi-tensor kernels (kernels/MultiTensorList.hpp) and the cuDNN
// descriptor keys (DescriptorKey.hpp): how a list is cut into blocks, how a block finds
// its tensor and chunk, and when a list is full. No device needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "workloads/backends/cuda/DescriptorKey.hpp"
#include "workloads/backends/cuda/kernels/MultiTensorList.hpp"

namespace trainscope::workloads::cuda {
namespace {

using kernels::ChunkRange;
using kernels::kMultiTensorChunk;
using kernels::TensorList;

void* address(std::uintptr_t value) {
    return reinterpret_cast<void*>(value);
}

TEST(MultiTensorList, FitsTheKernelParameterSpaceWithRoomForTheOp) {
    EXPECT_LE(sizeof(TensorList<1>), kernels::kTensorListBytes);
    EXPECT_LE(sizeof(TensorList<4>), kernels::kTensorListBytes);
    EXPECT_LE(kernels::kTensorListBytes + 128, 4096u);
    // Enough for a model's parameters in one launch per dtype group: resnet-20 has 65.
    EXPECT_GE(TensorList<4>::kCapacity, 80);
    EXPECT_GE(TensorList<1>::kCapacity, 190);
}

TEST(MultiTensorList, EveryElementBelongsToExactlyOneBlock) {
    const std::vector<std::int64_t> counts = {
        5, 0, kMultiTensorChunk, kMultiTensorChunk + 1, 1, 3 * kMultiTensorChunk - 7};
    TensorList<2> list;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        void* const addresses[2] = {address(0x1000 * (i + 1)), address(0x100000 * (i + 1))};
        ASSERT_TRUE(list.append(addresses, counts[i]));
    }
    // The empty tensor takes no place and no block.
    ASSERT_EQ(list.tensors, 5);
    EXPECT_EQ(list.blocks(), 1u + 1u + 2u + 1u + 3u);
    std::vector<std::vector<int>> covered(5);
    for (std::uint32_t block = 0; block < list.blocks(); ++block) {
        const int t = kernels::tensor_of_block(list.first_block, list.tensors, block);
        ASSERT_GE(t, 0);
        ASSERT_LT(t, list.tensors);
        const ChunkRange chunk =
            kernels::chunk_of_block(list.first_block[t], list.counts[t], block);
        ASSERT_GT(chunk.size, 0);
        ASSERT_LE(chunk.size, kMultiTensorChunk);
        ASSERT_LE(chunk.begin + chunk.size, list.counts[t]);
        auto& seen = covered[static_cast<std::size_t>(t)];
        seen.resize(static_cast<std::size_t>(list.counts[t]), 0);
        for (int i = 0; i < chunk.size; ++i) {
            ++seen[static_cast<std::size_t>(chunk.begin + i)];
        }
    }
    for (int t = 0; t < list.tensors; ++t) {
        for (int hits : covered[static_cast<std::size_t>(t)]) {
            EXPECT_EQ(hits, 1) << "tensor " << t;
        }
    }
    // Addresses stay with their tensor (the empty one skipped).
    EXPECT_EQ(list.addresses[0][1], address(0x3000));
    EXPECT_EQ(list.addresses[1][1], address(0x300000));
}

TEST(MultiTensorList, AFullListRefusesTheNextTensorUnchanged) {
    TensorList<4> list;
    void* const addresses[4] = {address(16), address(32), address(48), address(64)};
    for (int i = 0; i < TensorList<4>::kCapacity; ++i) {
        ASSERT_TRUE(list.append(addresses, 10));
    }
    EXPECT_FALSE(list.append(addresses, 10));
    EXPECT_EQ(list.tensors, TensorList<4>::kCapacity);
    EXPECT_EQ(list.blocks(), static_cast<std::uint32_t>(TensorList<4>::kCapacity));
    list.clear();
    EXPECT_EQ(list.tensors, 0);
    EXPECT_EQ(list.blocks(), 0u);
    EXPECT_TRUE(list.append(addresses, 10));
}

TEST(MultiTensorList, BinarySearchFindsTheOwnerAtEveryBoundary) {
    const std::uint32_t first_block[] = {0, 1, 1, 4, 9};  // tensor 1 owns no block
    const int tensors = 4;
    EXPECT_EQ(kernels::tensor_of_block(first_block, tensors, 0), 0);
    EXPECT_EQ(kernels::tensor_of_block(first_block, tensors, 1), 2);
    EXPECT_EQ(kernels::tensor_of_block(first_block, tensors, 3), 2);
    EXPECT_EQ(kernels::tensor_of_block(first_block, tensors, 4), 3);
    EXPECT_EQ(kernels::tensor_of_block(first_block, tensors, 8), 3);
}

TEST(DescriptorKey, EqualProblemsShareAnEntryAndAnyFieldSeparatesThem) {
    DescriptorCache<3, int> cache;
    cache[{{1, 2, 3}}] = 7;
    EXPECT_EQ(cache.count({{1, 2, 3}}), 1u);
    EXPECT_EQ(cache.count({{1, 2, 4}}), 0u);
    EXPECT_EQ(cache.count({{3, 2, 1}}), 0u);
    EXPECT_NE(DescriptorKeyHash<3>{}({{1, 2, 3}}), DescriptorKeyHash<3>{}({{3, 2, 1}}));
}

}  // namespace
}  // namespace trainscope::workloads::cuda
