// DeviceSweep (the one definition of a device's span, busy time and copy/compute overlap,
// kept as open intervals) against the held interval sets: merge_intervals' unions and
// intersect_intervals' overlap, on hand-made and random kernels and copies.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "profiler/analysis/DeviceSweep.hpp"

namespace trainscope::profiler {
namespace {

void expect_as_interval_sets(const std::vector<Interval>& kernels,
                             const std::vector<Interval>& copies) {
    const std::vector<Interval> kernel_union = merge_intervals(kernels);
    const std::vector<Interval> copy_union = merge_intervals(copies);
    // The sweep's own input: every non-empty interval, by start, the two kinds mixed.
    std::vector<std::pair<Interval, bool>> by_start;
    for (const Interval& k : kernels)
        by_start.push_back({k, true});
    for (const Interval& c : copies)
        by_start.push_back({c, false});
    std::erase_if(by_start, [](const auto& e) { return e.first.end_ns <= e.first.begin_ns; });
    std::stable_sort(by_start.begin(), by_start.end(), [](const auto& a, const auto& b) {
        return a.first.begin_ns < b.first.begin_ns;
    });
    DeviceSweep sweep;
    for (const auto& [i, kernel] : by_start)
        sweep.add(i, kernel);
    const DeviceSweepFigures streamed = std::move(sweep).finish();

    for (const DeviceSweepFigures& got : {streamed, DeviceSweep::of(kernel_union, copy_union)}) {
        EXPECT_EQ(got.kernel_ns, total_length_ns(kernel_union));
        EXPECT_EQ(got.copy_ns, total_length_ns(copy_union));
        EXPECT_EQ(got.overlap_ns, total_length_ns(intersect_intervals(kernel_union, copy_union)));
        EXPECT_EQ(got.span_begin_ns, kernel_union.empty() ? 0 : kernel_union.front().begin_ns);
        EXPECT_EQ(got.span_end_ns, kernel_union.empty() ? 0 : kernel_union.back().end_ns);
    }
}

TEST(DeviceSweep, OverlapAndSpanOnHandMadeWork) {
    // Kernels [0,10) [5,20) [20,25) [40,50) (touching ones join): union 35, span 0-50.
    // Copies [8,30) [45,60): union 37; overlap with the kernels [8,25) and [45,50): 22.
    expect_as_interval_sets({{20, 25}, {0, 10}, {5, 20}, {40, 50}}, {{8, 30}, {45, 60}});
    const DeviceSweepFigures f = DeviceSweep::of(std::vector<Interval>{{0, 25}, {40, 50}},
                                                 std::vector<Interval>{{8, 30}, {45, 60}});
    EXPECT_EQ(f.span_begin_ns, 0);
    EXPECT_EQ(f.span_end_ns, 50);
    EXPECT_EQ(f.kernel_ns, 35);
    EXPECT_EQ(f.copy_ns, 37);
    EXPECT_EQ(f.overlap_ns, 22);
}

TEST(DeviceSweep, NoKernelsOrNoCopies) {
    expect_as_interval_sets({}, {{3, 9}, {9, 12}});
    expect_as_interval_sets({{-30, -10}, {-5, 4}}, {});
    expect_as_interval_sets({}, {});
}

TEST(DeviceSweep, EqualsTheIntervalSetsOnRandomWork) {
    std::mt19937_64 rng(19);
    std::uniform_int_distribution<std::int64_t> start(-1'000, 100'000);
    std::uniform_int_distribution<std::int64_t> length(-5, 2'000);
    for (int round = 0; round < 50; ++round) {
        std::vector<Interval> kernels;
        std::vector<Interval> copies;
        for (int i = 0; i < 300; ++i) {
            const std::int64_t s = start(rng);
            (i % 3 == 0 ? copies : kernels).push_back({s, s + length(rng)});
        }
        expect_as_interval_sets(kernels, copies);
    }
}

}  // namespace
}  // namespace trainscope::profiler
