// Bucketing and shard assignment of data-parallel training, on hand-made layouts.
#include <gtest/gtest.h>

#include <vector>

#include "workloads/distributed/BatchShard.hpp"
#include "workloads/distributed/GradientBuckets.hpp"
#include "workloads/distributed/Overlap.hpp"
#include "workloads/distributed/RankThreads.hpp"
#include "workloads/training/ConfigError.hpp"
#include "workloads/training/ConfigValidation.hpp"

namespace trainscope::workloads {
namespace {

// Four f32 parameters of 64, 64, 128 and 64 elements laid out back to back in one buffer.
std::vector<GradientExtent> four_parameters() {
    return {{0, 0, 64, 4}, {0, 64, 128, 4}, {0, 128, 256, 4}, {0, 256, 320, 4}};
}

TEST(GradientBuckets, ReverseOrderClosedOnceFull) {
    // 512 bytes a bucket: parameter 3 (256 B) and 2 (512 B) make 768 >= 512, then 1 and 0.
    const std::vector<GradientBucket> buckets = plan_gradient_buckets(four_parameters(), 512);
    ASSERT_EQ(buckets.size(), 2u);
    EXPECT_EQ(buckets[0].parameters, (std::vector<std::size_t>{3, 2}));
    EXPECT_EQ(buckets[0].begin, 128);
    EXPECT_EQ(buckets[0].end, 320);
    EXPECT_EQ(buckets[1].parameters, (std::vector<std::size_t>{1, 0}));
    EXPECT_EQ(buckets[1].begin, 0);
    EXPECT_EQ(buckets[1].end, 128);
}

TEST(GradientBuckets, OneBucketPerParameterWhenTiny) {
    const std::vector<GradientBucket> buckets = plan_gradient_buckets(four_parameters(), 1);
    ASSERT_EQ(buckets.size(), 4u);
    EXPECT_EQ(buckets[0].parameters, (std::vector<std::size_t>{3}));
    EXPECT_EQ(buckets[3].parameters, (std::vector<std::size_t>{0}));
}

TEST(GradientBuckets, LargeCapIsOneBucketTilingTheBuffer) {
    const std::vector<GradientBucket> buckets = plan_gradient_buckets(four_parameters(), 25 << 20);
    ASSERT_EQ(buckets.size(), 1u);
    EXPECT_EQ(buckets[0].begin, 0);
    EXPECT_EQ(buckets[0].end, 320);
    EXPECT_EQ(buckets[0].parameters.size(), 4u);
}

TEST(GradientBuckets, NeverAcrossGradientBuffers) {
    // Mixed precision: f16 gradients of parameters 0 and 1, then batch norm's f32 ones.
    const std::vector<GradientExtent> extents{
        {0, 0, 128, 2}, {0, 128, 256, 2}, {1, 256, 384, 4}, {1, 384, 512, 4}};
    const std::vector<GradientBucket> buckets = plan_gradient_buckets(extents, 25 << 20);
    ASSERT_EQ(buckets.size(), 2u);
    EXPECT_EQ(buckets[0].span, 1u);  // the later buffer first
    EXPECT_EQ(buckets[0].parameters, (std::vector<std::size_t>{3, 2}));
    EXPECT_EQ(buckets[1].span, 0u);
    EXPECT_EQ(buckets[1].begin, 0);
    EXPECT_EQ(buckets[1].end, 256);
}

TEST(BatchShard, RanksTileTheGlobalBatch) {
    EXPECT_EQ(shard_rows(64, 0, 2).begin, 0);
    EXPECT_EQ(shard_rows(64, 0, 2).count, 32);
    EXPECT_EQ(shard_rows(64, 1, 2).begin, 32);
    EXPECT_EQ(shard_rows(64, 1, 2).count, 32);
    std::int64_t next = 0;
    for (int rank = 0; rank < 3; ++rank) {
        const RowRange rows = shard_rows(10, rank, 3);
        EXPECT_EQ(rows.begin, next);
        next = rows.begin + rows.count;
    }
    EXPECT_EQ(next, 10);
    EXPECT_EQ(shard_rows(128, 0, 1).count, 128);
}

TEST(DistributedConfig, BatchNotDivisibleByRanksIsRefused) {
    TrainingConfig config;
    config.batch = 30;
    config.ranks = 4;
    try {
        validate_run_parameters(config);
        FAIL() << "batch 30 over 4 ranks was accepted";
    } catch (const ConfigError& error) {
        EXPECT_NE(std::string(error.what()).find("multiple of ranks"), std::string::npos)
            << error.what();
    }
    config.batch = 32;
    EXPECT_NO_THROW(validate_run_parameters(config));
    config.bucket_mb = 0.0;
    EXPECT_THROW(validate_run_parameters(config), ConfigError);
}

TEST(DistributedConfig, OverlapSpellings) {
    EXPECT_EQ(parse_overlap("off"), Overlap::off);
    EXPECT_EQ(to_string(Overlap::on), "on");
    EXPECT_THROW(parse_overlap("maybe"), ConfigError);
}

// Without --threads the ranks on a node divide its cores instead of each taking all of them.
TEST(RankThreads, TheNodesCoresDividedAmongItsRanksAtLeastOne) {
    EXPECT_EQ(default_rank_threads(2, 2), 1);
    EXPECT_EQ(default_rank_threads(16, 4), 4);
    EXPECT_EQ(default_rank_threads(16, 3), 5);
    EXPECT_EQ(default_rank_threads(2, 8), 1);
    EXPECT_EQ(default_rank_threads(8, 1), 8);
    EXPECT_EQ(default_rank_threads(0, 2), 1);
}

}  // namespace
}  // namespace trainscope::workloads
