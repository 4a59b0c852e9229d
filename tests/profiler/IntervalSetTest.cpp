#include <gtest/gtest.h>

#include "profiler/analysis/IntervalSet.hpp"

namespace trainscope::profiler {
namespace {

TEST(IntervalSet, MergeJoinsOverlappingAndTouchingAndDropsEmpty) {
    const auto merged = merge_intervals({{10, 20}, {0, 5}, {15, 30}, {30, 35}, {40, 40}, {50, 45}});
    EXPECT_EQ(merged, (std::vector<Interval>{{0, 5}, {10, 35}}));
    EXPECT_EQ(total_length_ns(merged), 30);
}

TEST(IntervalSet, SubtractLeavesUncoveredParts) {
    const std::vector<Interval> from{{0, 10}, {20, 30}};
    const std::vector<Interval> removed{{2, 4}, {8, 22}, {25, 26}};
    EXPECT_EQ(subtract_intervals(from, removed),
              (std::vector<Interval>{{0, 2}, {4, 8}, {22, 25}, {26, 30}}));
    EXPECT_TRUE(subtract_intervals(from, std::vector<Interval>{{-5, 100}}).empty());
}

TEST(IntervalSet, IntersectKeepsCommonParts) {
    const std::vector<Interval> a{{0, 10}, {20, 30}};
    const std::vector<Interval> b{{5, 25}};
    EXPECT_EQ(intersect_intervals(a, b), (std::vector<Interval>{{5, 10}, {20, 25}}));
}

}  // namespace
}  // namespace trainscope::profiler
