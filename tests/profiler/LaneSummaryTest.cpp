// Level-of-detail summaries (profiler::summarize_rows) against the raw activities: every
// kept level of every row is recomputed here the slow way (bucket by bucket, the busy
// time as the union of the row's intervals clipped to the bucket) on a synthetic trace and
// on shared real traces.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <tuple>

#include "TraceFixtures.hpp"
#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/analysis/LaneSummary.hpp"

namespace trainscope::profiler {
namespace {

using RowKey = std::pair<LaneId, std::uint16_t>;

struct Expected {
    SummaryBucket bucket;
    std::tuple<std::int64_t, std::int64_t, std::size_t> dominant_order{};  // start, -end, index
};

// The buckets of one level of one row, straight from the activities.
std::map<std::int64_t, Expected> expected_buckets(const Trace& trace, RowKey key,
                                                  const RowSummaryLevel& level) {
    std::map<std::int64_t, Expected> out;
    std::vector<Interval> row;
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& a = trace.activities[i];
        if (a.lane != key.first || summary_row_depth(trace.lanes[a.lane], a) != key.second)
            continue;
        row.push_back({a.start_ns, a.end_ns});
        const std::int64_t index = level.index_of(a.start_ns);
        const auto order = std::make_tuple(a.start_ns, -a.end_ns, i);
        auto [it, added] = out.try_emplace(index);
        Expected& e = it->second;
        const std::int64_t d = a.duration_ns();
        if (added) {
            e.bucket = {a.start_ns, a.end_ns, 0, d, 0, a.name, a.kind};
            e.dominant_order = order;
        }
        ++e.bucket.count;
        e.bucket.first_start = std::min(e.bucket.first_start, a.start_ns);
        e.bucket.last_end = std::max(e.bucket.last_end, a.end_ns);
        if (d > e.bucket.longest_ns || (d == e.bucket.longest_ns && order < e.dominant_order)) {
            e.bucket.longest_ns = d;
            e.bucket.name = a.name;
            e.bucket.kind = a.kind;
            e.dominant_order = order;
        }
    }
    const auto merged = merge_intervals(row);
    for (auto& [index, e] : out) {
        const std::int64_t b0 = level.origin_ns + index * level.width_ns;
        const Interval bucket{b0, b0 + level.width_ns};
        e.bucket.busy_ns = total_length_ns(intersect_intervals(merged, {&bucket, 1}));
    }
    return out;
}

std::map<RowKey, std::int64_t> row_sizes(const Trace& trace) {
    std::map<RowKey, std::int64_t> sizes;
    for (const Activity& a : trace.activities)
        ++sizes[{a.lane, summary_row_depth(trace.lanes[a.lane], a)}];
    return sizes;
}

// Checks every kept level and that exactly the levels dense enough are kept.
void expect_summaries_agree(const Trace& trace) {
    const auto levels = summarize_rows(trace);
    std::int64_t origin = trace.activities.front().start_ns;
    for (const Activity& a : trace.activities)
        origin = std::min(origin, a.start_ns);
    std::map<RowKey, std::vector<int>> kept;
    for (const RowSummaryLevel& level : levels) {
        const RowKey key{level.lane, level.depth};
        kept[key].push_back(level.level);
        ASSERT_EQ(level.origin_ns, origin);
        std::int64_t width = kSummaryBaseWidthNs;
        for (int l = 0; l < level.level; ++l)
            width *= 4;
        ASSERT_EQ(level.width_ns, width);
        const auto expected = expected_buckets(trace, key, level);
        ASSERT_EQ(level.buckets.size(), expected.size())
            << "lane " << key.first << " depth " << key.second << " level " << level.level;
        std::size_t i = 0;
        for (const auto& [index, e] : expected) {
            const SummaryBucket& got = level.buckets[i++];
            EXPECT_EQ(level.index_of(got.first_start), index);
            EXPECT_EQ(got, e.bucket)
                << "lane " << key.first << " depth " << key.second << " level " << level.level
                << " bucket " << index << ": busy " << got.busy_ns << " vs " << e.bucket.busy_ns
                << ", count " << got.count << " vs " << e.bucket.count;
        }
    }
    // A level is kept exactly when its buckets average kMinActivitiesPerBucket activities.
    for (const auto& [key, size] : row_sizes(trace)) {
        std::vector<int> want;
        RowSummaryLevel probe;
        probe.origin_ns = origin;
        for (int l = 0;; ++l) {
            const auto buckets =
                static_cast<std::int64_t>(expected_buckets(trace, key, probe).size());
            if (buckets * kMinActivitiesPerBucket <= size)
                want.push_back(l);
            if (buckets <= 1)
                break;
            probe.width_ns *= 4;
        }
        EXPECT_EQ(kept[key], want) << "lane " << key.first << " depth " << key.second;
    }
}

// Streams with dense runs and overlaps, a nested host stack, long activities over many
// buckets, on an absolute clock (origin far from 0), stored out of order.
Trace synthetic_trace() {
    Trace t;
    t.lanes.push_back({LaneKind::GpuStream, 0, 7, 1, "GPU 0 · stream 7", 0});
    t.lanes.push_back({LaneKind::GpuStream, 0, 9, 1, "GPU 0 · stream 9", 0});
    t.lanes.push_back({LaneKind::HostThread, -1, 11, 1, "CPU · main thread", 0});
    const StringId names[] = {t.strings.intern("conv"), t.strings.intern("gemm"),
                              t.strings.intern("cudaLaunchKernel"), t.strings.intern("step")};
    std::mt19937_64 rng(19);
    const std::int64_t origin = 1'700'000'000'000'000'000;
    auto add = [&](LaneId lane, std::int64_t start, std::int64_t length, std::uint16_t depth,
                   StringId name, ActivityKind kind) {
        Activity a;
        a.lane = lane;
        a.start_ns = origin + start;
        a.end_ns = a.start_ns + length;
        a.depth = depth;  // the stream's depth must be ignored: streams are flat
        a.name = name;
        a.kind = kind;
        t.activities.push_back(a);
    };
    std::int64_t now = 0;
    for (int i = 0; i < 6000; ++i) {
        const bool dense = (i / 500) % 2 == 0;
        now += dense ? static_cast<std::int64_t>(rng() % 300)
                     : static_cast<std::int64_t>(rng() % 40'000);
        const auto len = static_cast<std::int64_t>(rng() % (dense ? 900 : 20'000)) + 1;
        add(static_cast<LaneId>(i % 2), now, len, static_cast<std::uint16_t>(rng() % 3),
            names[rng() % 2], ActivityKind::Kernel);
        if (i % 3 == 0)
            add(2, now, len / 2 + 1, 1, names[2], ActivityKind::RuntimeApi);
    }
    for (std::int64_t s = 0; s < now; s += 5'000'000)
        add(2, s, 4'000'000, 0, names[3], ActivityKind::NvtxRange);  // over many buckets
    add(0, 0, now, 0, names[0], ActivityKind::Kernel);               // the whole trace
    std::shuffle(t.activities.begin(), t.activities.end(), rng);
    return t;
}

TEST(LaneSummary, AgreesWithTheRawActivitiesOfASyntheticTrace) {
    const Trace trace = synthetic_trace();
    expect_summaries_agree(trace);
    // The dense stream keeps its fine levels; the summaries are far smaller than the trace.
    const auto levels = summarize_rows(trace);
    std::size_t buckets = 0;
    bool fine_level = false;
    for (const RowSummaryLevel& l : levels) {
        buckets += l.buckets.size();
        fine_level = fine_level || (l.lane == 0 && l.level <= 4);  // 256 µs of a 60 ms trace
    }
    EXPECT_TRUE(fine_level);
    EXPECT_LT(buckets, trace.activities.size() / 2);
}

TEST(LaneSummary, AgreesWithTheRawActivitiesOfSharedTraces) {
    for (const char* stem : {"v100_resnet50_training", "h100_bert_small_inference"}) {
        SCOPED_TRACE(stem);
        expect_summaries_agree(testing::kineto_fixture(stem));
    }
}

TEST(LaneSummary, StreamsAreFlatAndStacksShareTheirDeepestRow) {
    Lane stream{LaneKind::GpuStream, 0, 7, 1, "s", 0};
    Lane thread{LaneKind::HostThread, -1, 1, 1, "t", 0};
    Activity a;
    a.depth = 5;
    EXPECT_EQ(summary_row_depth(stream, a), 0);
    EXPECT_EQ(summary_row_depth(thread, a), 5);
    a.depth = 200;
    EXPECT_EQ(summary_row_depth(thread, a), kMaxSummaryDepth);
}

TEST(LaneSummary, AnEmptyTraceHasNone) {
    EXPECT_TRUE(summarize_rows(Trace{}).empty());
}

}  // namespace
}  // namespace trainscope::profiler
