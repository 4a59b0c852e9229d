// Per-device work (DeviceWorkAccumulator), the one source of busy time and copy/compute
// overlap: a device is (rank, device), and work fed one activity at a time in any order
// gives what the whole-trace analyses give.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <vector>

#include "WorkActivity.hpp"
#include "profiler/analysis/CopyComputeOverlapAnalysis.hpp"
#include "profiler/analysis/DeviceWorkAccumulator.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"

namespace trainscope::profiler {
namespace {

// Two ranks of a job, each with its own "device 0": rank 0 busy [0, 100), rank 1 busy
// [1000, 1100) (its kernel names the device on the record, rank 0's takes the lane's).
// Pooled into one union they would read 200 ns busy over an 1100 ns span.
Trace two_ranks_each_on_device_zero() {
    Trace t;
    t.world_size = 2;
    const LaneId rank0 = t.add_lane({LaneKind::GpuStream, 0, 7, 100, "r0 s7", 0});
    const LaneId rank1 = t.add_lane({LaneKind::GpuStream, 0, 7, 100, "r1 s7", 1});
    t.activities.push_back(work(ActivityKind::Kernel, rank0, 0, 100));
    t.activities.push_back(work(ActivityKind::Kernel, rank1, 1000, 1100, 0));
    // Rank 0 copies while only rank 1 computes: all of it is exposed on rank 0's device.
    t.activities.push_back(work(ActivityKind::Memcpy, rank0, 1000, 1050));
    return t;
}

TEST(DeviceWork, TwoRanksDeviceZeroAreTwoDevices) {
    const Trace t = two_ranks_each_on_device_zero();
    const auto busy = analyze_gpu_busy(t);
    ASSERT_EQ(busy.size(), 2U);
    for (std::size_t r = 0; r < 2; ++r) {
        EXPECT_EQ(busy[r].rank, static_cast<std::int32_t>(r));
        EXPECT_EQ(busy[r].device, 0);
        EXPECT_EQ(busy[r].span_ns, 100);
        EXPECT_EQ(busy[r].busy_ns, 100);
        EXPECT_DOUBLE_EQ(busy[r].busy_fraction, 1.0);
    }
    EXPECT_EQ(busy[1].span_begin_ns, 1000);

    const auto overlap = analyze_copy_compute_overlap(t);
    ASSERT_EQ(overlap.size(), 2U);
    EXPECT_EQ(overlap[0].rank, 0);
    EXPECT_EQ(overlap[0].copy_ns, 50);
    EXPECT_EQ(overlap[0].exposed_copy_ns, 50);
    EXPECT_EQ(overlap[1].rank, 1);
    EXPECT_EQ(overlap[1].copy_ns, 0);

    GpuBusyOptions with_copies;
    with_copies.include_copies = true;
    const auto timelines = device_busy_timelines(t, with_copies);
    ASSERT_EQ(timelines.size(), 2U);
    EXPECT_EQ(timelines[0].rank, 0);
    EXPECT_DOUBLE_EQ(timelines[0].busy.busy_ns(0, 2000), 150.0);
    EXPECT_EQ(timelines[1].rank, 1);
    EXPECT_DOUBLE_EQ(timelines[1].busy.busy_ns(0, 2000), 100.0);
}

// A streamed import feeds the accumulator in the store's order, not the capture's: any
// order gives the whole-trace answer, empty work included.
TEST(DeviceWork, ActivitiesInAnyOrderGiveTheWholeTraceAnswer) {
    std::mt19937 rng(5);
    Trace t;
    const LaneId s0 = t.add_lane({LaneKind::GpuStream, 0, 7, 1, "s0", 0});
    const LaneId s1 = t.add_lane({LaneKind::GpuStream, 1, 7, 1, "s1", 0});
    const LaneId s2 = t.add_lane({LaneKind::GpuStream, 0, 7, 2, "s2", 1});
    const std::array<LaneId, 3> lanes{s0, s1, s2};
    const std::array<ActivityKind, 3> kinds{ActivityKind::Kernel, ActivityKind::Memcpy,
                                            ActivityKind::Memset};
    for (int i = 0; i < 2000; ++i) {
        const std::int64_t start = static_cast<std::int64_t>(rng() % 100'000);
        t.activities.push_back(work(kinds[rng() % 3], lanes[rng() % 3], start,
                                    start + static_cast<std::int64_t>(rng() % 400) - 50));
    }
    GpuBusyOptions options;
    options.include_copies = true;
    const auto whole = analyze_gpu_busy(t, options);
    ASSERT_EQ(whole.size(), 3U);

    std::vector<Activity> shuffled = t.activities;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    DeviceWorkAccumulator fed(t.lanes);
    for (const Activity& a : shuffled)
        fed.add(a);
    const auto streamed = analyze_gpu_busy(fed, options);
    ASSERT_EQ(streamed.size(), whole.size());
    for (std::size_t i = 0; i < whole.size(); ++i) {
        EXPECT_EQ(streamed[i].rank, whole[i].rank);
        EXPECT_EQ(streamed[i].device, whole[i].device);
        EXPECT_EQ(streamed[i].busy_ns, whole[i].busy_ns);
        EXPECT_EQ(streamed[i].span_ns, whole[i].span_ns);
        EXPECT_EQ(streamed[i].short_gap_count, whole[i].short_gap_count);
    }
    const auto overlap_whole = analyze_copy_compute_overlap(t);
    const auto overlap_fed = analyze_copy_compute_overlap(fed);
    ASSERT_EQ(overlap_fed.size(), overlap_whole.size());
    for (std::size_t i = 0; i < overlap_whole.size(); ++i)
        EXPECT_EQ(overlap_fed[i].exposed_copy_ns, overlap_whole[i].exposed_copy_ns);
}

// A CPU run's ops stand for the device's work by the one rule host_ops_as_device_work
// states: the accumulator's host-op mode gives the same busy time.
TEST(DeviceWork, HostOpsAsKernelsFollowHostOpsAsDeviceWork) {
    Trace t;
    const LaneId thread = t.add_lane({LaneKind::HostThread, -1, 5, 1, "main", 0});
    t.activities.push_back(work(ActivityKind::HostOp, thread, 0, 100));
    t.activities.push_back(work(ActivityKind::HostOp, thread, 50, 120));
    t.activities.push_back(work(ActivityKind::HostOp, thread, 400, 500));
    ASSERT_TRUE(is_host_op_trace(t));
    const auto expected = analyze_gpu_busy(host_ops_as_device_work(t));
    const auto busy = analyze_gpu_busy(DeviceWorkAccumulator::of(t, true));
    ASSERT_EQ(expected.size(), 1U);
    ASSERT_EQ(busy.size(), 1U);
    EXPECT_EQ(busy[0].device, expected[0].device);
    EXPECT_EQ(busy[0].busy_ns, 220);
    EXPECT_EQ(busy[0].busy_ns, expected[0].busy_ns);
    EXPECT_EQ(busy[0].span_ns, expected[0].span_ns);
    EXPECT_TRUE(analyze_gpu_busy(DeviceWorkAccumulator::of(t, false)).empty());
}

// The busy timeline keeps a running sum only every few change points and adds the steps
// since: every window over thousands of change points of three workers reads the busy
// time counted point by point, and the timelines made from an accumulator (the GUI's
// loader, rebased after its rows passed) are the whole trace's.
TEST(DeviceWork, BusyTimelineReadsEveryWindowExactly) {
    std::mt19937 rng(11);
    std::vector<std::vector<Interval>> workers(3);
    for (auto& intervals : workers) {
        std::int64_t t = 0;
        for (int i = 0; i < 700; ++i) {
            t += static_cast<std::int64_t>(rng() % 50);
            const std::int64_t end = t + 1 + static_cast<std::int64_t>(rng() % 40);
            intervals.push_back({t, end});
            t = end;
        }
    }
    const auto busy_at = [&workers](std::int64_t t) {  // busy workers over [t, t + 1)
        int n = 0;
        for (const auto& intervals : workers) {
            for (const Interval& iv : intervals)
                n += iv.begin_ns <= t && t < iv.end_ns ? 1 : 0;
        }
        return n;
    };
    std::vector<std::int64_t> prefix{0};  // busy worker-time before t
    for (std::int64_t t = 0; t < 60'000; ++t)
        prefix.push_back(prefix.back() + busy_at(t));
    const BusyTimeline timeline(workers);
    for (int i = 0; i < 3000; ++i) {
        const auto t0 = static_cast<std::int64_t>(rng() % 60'000);
        const auto t1 =
            std::min<std::int64_t>(60'000, t0 + static_cast<std::int64_t>(rng() % 9000));
        ASSERT_EQ(timeline.busy_ns(static_cast<double>(t0), static_cast<double>(t1)),
                  static_cast<double>(prefix[static_cast<std::size_t>(t1)] -
                                      prefix[static_cast<std::size_t>(t0)]))
            << t0 << " " << t1;
    }

    Trace t;
    const LaneId s0 = t.add_lane({LaneKind::GpuStream, 0, 7, 1, "s0", 0});
    const LaneId s1 = t.add_lane({LaneKind::GpuStream, 0, 8, 1, "s1", 0});
    constexpr std::int64_t kClock = 1'700'000'000'000'000'000;
    DeviceWorkAccumulator fed(t.lanes);
    for (int i = 0; i < 500; ++i) {
        const auto start = static_cast<std::int64_t>(rng() % 100'000);
        t.activities.push_back(work(i % 3 == 0 ? ActivityKind::Memcpy : ActivityKind::Kernel,
                                    i % 2 == 0 ? s0 : s1, start,
                                    start + static_cast<std::int64_t>(rng() % 300)));
        Activity absolute = t.activities.back();
        absolute.start_ns += kClock;
        absolute.end_ns += kClock;
        fed.add(absolute);
    }
    fed.shift_earlier(kClock);
    GpuBusyOptions options;
    options.include_copies = true;
    const auto whole = device_busy_timelines(t, options);
    const auto streamed = device_busy_timelines(fed, options);
    ASSERT_EQ(whole.size(), 1U);
    ASSERT_EQ(streamed.size(), 1U);
    for (std::int64_t t0 = 0; t0 < 100'000; t0 += 7919)
        EXPECT_EQ(streamed[0].busy.busy_ns(static_cast<double>(t0), static_cast<double>(t0) + 2e4),
                  whole[0].busy.busy_ns(static_cast<double>(t0), static_cast<double>(t0) + 2e4));
}

}  // namespace
}  // namespace trainscope::profiler
