// The cuDNN descriptor keys (DescriptorKey.hpp): equal problems share a cache entry and
// any field separates them. No device needed.
#include <gtest/gtest.h>

#include "workloads/backends/cuda/DescriptorKey.hpp"

namespace trainscope::workloads::cuda {
namespace {

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
