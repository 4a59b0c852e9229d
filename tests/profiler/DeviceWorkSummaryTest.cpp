// DeviceWorkSummary's bounded figures (records sorted by device, only open intervals held)
// equal the interval-union analyses' (analyze_gpu_busy, analyze_copy_compute_overlap) per
// device: on a hand-made trace with overlapping streams, touching and empty work and
// devices whose lanes come out of order, on a host-op trace, and on a random trace large
// enough that the sorter's runs go to disk.
#include <gtest/gtest.h>

#include <random>

#include "WorkActivity.hpp"
#include "profiler/analysis/CopyComputeOverlapAnalysis.hpp"
#include "profiler/analysis/DeviceWorkSummary.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"

namespace trainscope::profiler {
namespace {

std::vector<DeviceWorkTotals> summarize(const Trace& t, bool host_ops = false) {
    DeviceWorkSummary summary(t.lanes, host_ops);
    for (const Activity& a : t.activities)
        summary.add(a);
    return std::move(summary).finish();
}

// Every device of the interval-union analyses, with the summary's figures.
void expect_equal_to_interval_unions(const Trace& t, bool host_ops = false) {
    const std::vector<DeviceWorkTotals> got = summarize(t, host_ops);
    const DeviceWorkAccumulator intervals = [&] {
        DeviceWorkAccumulator acc(t.lanes, host_ops);
        for (const Activity& a : t.activities)
            acc.add(a);
        return acc;
    }();
    const auto busy = analyze_gpu_busy(intervals);
    const auto overlap = analyze_copy_compute_overlap(intervals);
    ASSERT_EQ(got.size(), overlap.size());
    std::size_t b = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        SCOPED_TRACE("device " + std::to_string(got[i].device.rank) + "/" +
                     std::to_string(got[i].device.device));
        EXPECT_EQ(got[i].device.rank, overlap[i].rank);
        EXPECT_EQ(got[i].device.device, overlap[i].device);
        EXPECT_EQ(got[i].figures.copy_ns, overlap[i].copy_ns);
        EXPECT_EQ(got[i].figures.kernel_ns, overlap[i].compute_ns);
        EXPECT_EQ(got[i].figures.overlap_ns, overlap[i].overlap_ns);
        // analyze_gpu_busy lists only devices with a non-empty kernel.
        if (b < busy.size() && busy[b].rank == got[i].device.rank &&
            busy[b].device == got[i].device.device) {
            EXPECT_EQ(got[i].figures.span_begin_ns, busy[b].span_begin_ns);
            EXPECT_EQ(got[i].figures.span_end_ns, busy[b].span_end_ns);
            EXPECT_EQ(got[i].figures.kernel_ns, busy[b].busy_ns);
            ++b;
        } else {
            EXPECT_EQ(got[i].figures.kernel_ns, 0);
            EXPECT_EQ(got[i].figures.span_end_ns - got[i].figures.span_begin_ns, 0);
        }
    }
    EXPECT_EQ(b, busy.size());
}

TEST(DeviceWorkSummary, EqualsTheIntervalUnionsOnOverlapsAndOutOfOrderDevices) {
    Trace t;
    // Device 1's lanes first, device 0's after, a second rank's device 0 between them.
    const auto d1a = t.add_lane({LaneKind::GpuStream, 1, 7, 1, "d1 s7", 0});
    const auto r1 = t.add_lane({LaneKind::GpuStream, 0, 7, 2, "rank 1 d0", 1});
    const auto d0a = t.add_lane({LaneKind::GpuStream, 0, 7, 1, "d0 s7", 0});
    const auto d0b = t.add_lane({LaneKind::GpuStream, 0, 8, 1, "d0 s8", 0});
    const auto d1b = t.add_lane({LaneKind::GpuStream, 1, 9, 1, "d1 s9", 0});
    auto& a = t.activities;
    a.push_back(work(ActivityKind::Kernel, d1a, 500, 900));
    a.push_back(work(ActivityKind::Memcpy, d1a, 950, 1'200));
    a.push_back(work(ActivityKind::Kernel, r1, 0, 100));
    a.push_back(work(ActivityKind::Memcpy, r1, 50, 80));
    // Device 0: stream 7 with gaps that stream 8 fills later.
    a.push_back(work(ActivityKind::Kernel, d0a, 100, 200));
    a.push_back(work(ActivityKind::Kernel, d0a, 200, 300));  // touches
    a.push_back(work(ActivityKind::Kernel, d0a, 400, 400));  // empty: counted, no time
    a.push_back(work(ActivityKind::Kernel, d0a, 600, 700));
    a.push_back(work(ActivityKind::Memcpy, d0a, 650, 1'000));
    a.push_back(work(ActivityKind::Memset, d0a, 1'000, 1'100));
    a.push_back(work(ActivityKind::Kernel, d0b, 50, 120));
    a.push_back(work(ActivityKind::Kernel, d0b, 250, 650));         // bridges two of stream 7's
    a.push_back(work(ActivityKind::Memcpy, d0b, 0, 60));            // before any kernel
    a.push_back(work(ActivityKind::Memcpy, d0b, 900, 2'000));       // after the last kernel
    a.push_back(work(ActivityKind::Kernel, d0b, 1'500, 1'600));     // inside that copy
    a.push_back(work(ActivityKind::Kernel, d0b, 3'000, 3'100, 1));  // its record names device 1
    a.push_back(work(ActivityKind::Kernel, d1b, 800, 1'000));
    a.push_back(work(ActivityKind::Memcpy, d1b, 100, 600));
    expect_equal_to_interval_unions(t);
    const auto got = summarize(t);
    ASSERT_EQ(got.size(), 3u);                       // rank 0: devices 0 and 1; rank 1: device 0
    EXPECT_EQ(got[0].figures.kernel_ns, 650 + 100);  // 50-700 and 1500-1600
    EXPECT_EQ(got[0].kernel_count, 7);
}

TEST(DeviceWorkSummary, HostOpsCountAsKernelsInAHostOpTrace) {
    Trace t;
    const auto thread = t.add_lane({LaneKind::HostThread, -1, 5, 5, "t", 0});
    const auto other = t.add_lane({LaneKind::HostThread, -1, 6, 5, "u", 0});
    t.activities.push_back(work(ActivityKind::HostOp, thread, 0, 100));
    t.activities.push_back(work(ActivityKind::HostOp, thread, 300, 400));
    t.activities.push_back(work(ActivityKind::HostOp, other, 50, 350));
    expect_equal_to_interval_unions(t, true);
    EXPECT_EQ(summarize(t, true).at(0).figures.kernel_ns, 400);
    EXPECT_TRUE(summarize(t, false).empty());
}

TEST(DeviceWorkSummary, EqualsTheIntervalUnionsWhenItsRecordsGoToDisk) {
    std::mt19937 rng(19);
    Trace t;
    std::vector<LaneId> lanes;
    for (int d = 0; d < 3; ++d) {
        for (int s = 0; s < 3; ++s) {
            lanes.push_back(t.add_lane({LaneKind::GpuStream, d, 7 + s, 1, "s", d % 2}));
        }
    }
    std::uniform_int_distribution<int> lane(0, static_cast<int>(lanes.size()) - 1);
    std::uniform_int_distribution<std::int64_t> start(0, 50'000'000);
    std::uniform_int_distribution<std::int64_t> length(0, 400);
    std::uniform_int_distribution<int> kind(0, 2);
    const std::size_t n = 3 * DeviceWorkSummary::kRunCapacity + 123;  // four runs
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t s = start(rng);
        t.activities.push_back(work(static_cast<ActivityKind>(kind(rng)),
                                    lanes[static_cast<std::size_t>(lane(rng))], s,
                                    s + length(rng)));
    }
    t.sort();  // lane by lane, as a stored or streamed trace passes
    expect_equal_to_interval_unions(t);
}

}  // namespace
}  // namespace trainscope::profiler
