// The streamed imports, Kineto and Nsight Systems (activities sorted on disk in runs, nested
// and joined as they pass once), against the same file held whole, with runs small enough that
// every shared trace spills to several: the trace, its collectives and its level-of-detail
// summaries must be exactly the whole one's.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <tuple>

#include "RecordFields.hpp"
#include "TraceFixtures.hpp"
#include "profiler/analysis/LaneSummary.hpp"
#include "profiler/analysis/RowSummarizer.hpp"
#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/formats/NsysSqliteImporter.hpp"
#include "profiler/trace/ActivitySorter.hpp"
#include "profiler/trace/TraceNesting.hpp"
#include "profiler/trace/TraceOrder.hpp"

namespace trainscope::profiler {
namespace {

// The one trace order that Trace::sort, the sorter's runs and their merge use: lanes
// contiguous, then by start, the enclosing (longer) activity first.
TEST(TraceOrder, LanesThenStartThenTheEnclosingFirst) {
    Activity parent;
    parent.lane = 1;
    parent.start_ns = 10;
    parent.end_ns = 100;
    Activity child = parent;
    child.end_ns = 50;
    Activity later = parent;
    later.start_ns = 11;
    Activity other_lane = parent;
    other_lane.lane = 0;
    other_lane.start_ns = 500;
    EXPECT_TRUE(in_trace_order(parent, child));
    EXPECT_FALSE(in_trace_order(child, parent));
    EXPECT_TRUE(in_trace_order(child, later));
    EXPECT_TRUE(in_trace_order(other_lane, parent));
    EXPECT_FALSE(in_trace_order(parent, parent));
    Trace t;
    t.activities = {later, child, other_lane, parent};
    t.sort();
    EXPECT_TRUE(std::is_sorted(t.activities.begin(), t.activities.end(), in_trace_order<Activity>));
    EXPECT_EQ(t.activities[1].end_ns, 100);
}

TEST(ActivitySorter, SortsAsTraceSortDoesAcrossRunsOnDisk) {
    std::mt19937 rng(7);
    Trace trace;
    for (int i = 0; i < 5000; ++i) {
        Activity a;
        a.lane = static_cast<LaneId>(rng() % 4);
        a.start_ns =
            static_cast<std::int64_t>(rng() % 50);  // many ties: the order added breaks them
        a.end_ns = a.start_ns + static_cast<std::int64_t>(rng() % 5);
        a.correlation = static_cast<std::uint64_t>(i);
        trace.activities.push_back(a);
    }
    for (const std::size_t run : {std::size_t{7}, std::size_t{1000}, std::size_t{100000}}) {
        SCOPED_TRACE(run);
        ActivitySorter sorter(run);
        for (const Activity& a : trace.activities)
            sorter.add(a);
        EXPECT_EQ(sorter.size(), 5000);
        SortedActivities sorted = std::move(sorter).finish();
        Trace expected = trace;
        expected.sort();
        Activity a;
        std::size_t i = 0;
        while (sorted.next(a)) {
            ASSERT_LT(i, expected.activities.size());
            ASSERT_EQ(a.correlation, expected.activities[i].correlation) << "at " << i;
            ++i;
        }
        EXPECT_EQ(i, expected.activities.size());
    }
}

// Enough runs that each reads its part in blocks smaller than the run (the readers' blocks
// together stay within a budget), read through the sorter's own reader and a second one
// (another_reader, the import's summary pass) in turns: both give Trace::sort's order.
TEST(ActivitySorter, ManyRunsReadInSmallBlocksByTwoReadersInTurn) {
    std::mt19937 rng(11);
    Trace trace;
    constexpr int kActivities = 120'000;  // 120 runs of 1000: blocks of under 1000
    for (int i = 0; i < kActivities; ++i) {
        Activity a;
        a.lane = static_cast<LaneId>(rng() % 3);
        a.start_ns = static_cast<std::int64_t>(rng() % 1'000'000);
        a.end_ns = a.start_ns + static_cast<std::int64_t>(rng() % 100);
        a.correlation = static_cast<std::uint64_t>(i);
        trace.activities.push_back(a);
    }
    ActivitySorter sorter(1000);
    for (const Activity& a : trace.activities)
        sorter.add(a);
    SortedActivities sorted = std::move(sorter).finish();
    const std::unique_ptr<ActivityStream> second = sorted.another_reader();
    ASSERT_NE(second, nullptr);
    Trace expected = trace;
    expected.sort();
    Activity a;
    Activity b;
    for (std::size_t i = 0; i < expected.activities.size(); ++i) {
        ASSERT_TRUE(sorted.next(a)) << "at " << i;
        ASSERT_EQ(a.correlation, expected.activities[i].correlation) << "at " << i;
        if (i % 3 == 0) {  // the second reader lags, then catches up
            const std::size_t at = i / 3;
            ASSERT_TRUE(second->next(b)) << "at " << at;
            ASSERT_EQ(b.correlation, expected.activities[at].correlation) << "at " << at;
        }
    }
    EXPECT_FALSE(sorted.next(a));
    for (std::size_t at = (expected.activities.size() + 2) / 3; at < expected.activities.size();
         ++at) {
        ASSERT_TRUE(second->next(b)) << "at " << at;
        ASSERT_EQ(b.correlation, expected.activities[at].correlation) << "at " << at;
    }
    EXPECT_FALSE(second->next(b));
}

TEST(ActivitySorter, ActivitiesHeldInMemoryHaveNoSecondReader) {
    ActivitySorter sorter;
    sorter.add(Activity{});
    const SortedActivities sorted = std::move(sorter).finish();
    EXPECT_EQ(sorted.another_reader(), nullptr);
}

// Runs spilled to disk (tiny runs) against the same reader materialised in memory: this
// checks the on-disk sort and merge, not the importer against its predecessor; that is
// import_equivalence_tests' pinned digests of the previous importer's databases.
using Streamer = StreamedTrace (*)(const std::filesystem::path&, const StreamOptions&);

void expect_streamed_equals_whole(const std::string& relative, std::size_t run,
                                  Streamer stream = stream_kineto_trace,
                                  std::size_t parse_threads = 0) {
    const auto file = testing::shared_trace_path(relative);
    // The default run holds every fixture.
    const Trace whole = materialize(stream(file, {}));
    StreamOptions options;
    options.run_capacity = run;
    options.parse_threads = parse_threads;
    StreamedTrace streamed = stream(file, options);
    EXPECT_EQ(streamed.activity_count, static_cast<std::int64_t>(whole.activities.size()));
    // The summaries as the store makes them while the activities pass.
    std::vector<RowSummaryLevel> levels;
    LaneSummaryStream summaries(streamed.header.lanes, streamed.first_start_ns);
    preview_activities(streamed, [&summaries](const Activity& a) { summaries.plan(a); });
    summaries.set_plan(summaries.take_plan(), [&levels](std::vector<RowSummaryLevel>&& lane) {
        levels.insert(levels.end(), lane.begin(), lane.end());
    });
    std::vector<Activity> passed;
    stream_activities(streamed, [&](const Activity& a) {
        passed.push_back(a);
        summaries.add(a);
    });
    summaries.finish();
    const Trace& header = streamed.header;
    ASSERT_EQ(passed.size(), whole.activities.size());
    for (std::size_t i = 0; i < passed.size(); ++i)
        ASSERT_EQ(fields(passed[i]), fields(whole.activities[i])) << "activity " << i;
    ASSERT_EQ(header.collectives.size(), whole.collectives.size());
    for (std::size_t i = 0; i < header.collectives.size(); ++i)
        EXPECT_EQ(fields(header.collectives[i]), fields(whole.collectives[i]))
            << "collective " << i;
    ASSERT_EQ(header.strings.size(), whole.strings.size());
    for (std::size_t i = 0; i < header.strings.size(); ++i)
        EXPECT_EQ(header.strings.at(static_cast<StringId>(i)),
                  whole.strings.at(static_cast<StringId>(i)));
    EXPECT_EQ(header.lanes.size(), whole.lanes.size());
    EXPECT_EQ(header.metadata, whole.metadata);
    EXPECT_EQ(std::make_tuple(header.base_ns, header.capture_begin_ns, header.capture_end_ns),
              std::make_tuple(whole.base_ns, whole.capture_begin_ns, whole.capture_end_ns));

    const auto expected = summarize_rows(whole);
    ASSERT_EQ(levels.size(), expected.size());
    for (std::size_t i = 0; i < levels.size(); ++i) {
        EXPECT_EQ(std::make_tuple(levels[i].lane, levels[i].depth, levels[i].level,
                                  levels[i].width_ns, levels[i].origin_ns),
                  std::make_tuple(expected[i].lane, expected[i].depth, expected[i].level,
                                  expected[i].width_ns, expected[i].origin_ns));
        EXPECT_TRUE(levels[i].buckets == expected[i].buckets) << "level " << i;
    }
}

TEST(StreamedKinetoImport, EqualsTheWholeImportWithRunsOnDisk) {
    for (const char* relative :
         {"kineto/v100_resnet50_training.json.gz", "kineto/h100_bert_small_inference.json.gz",
          "kineto/a100_two_streams_add.json.gz"}) {
        SCOPED_TRACE(relative);
        expect_streamed_equals_whole(relative, 997);
    }
}

// The same with the events parsed on three threads (detail/KinetoParsePool) while the
// whole import parses on the reading thread.
TEST(StreamedKinetoImport, ParsedOnSeveralThreadsEqualsTheWholeImport) {
    for (const char* relative :
         {"kineto/v100_resnet50_training.json.gz", "kineto/h100_bert_small_inference.json.gz",
          "kineto/a100_two_streams_add.json.gz"}) {
        SCOPED_TRACE(relative);
        expect_streamed_equals_whole(relative, 997, stream_kineto_trace, 3);
    }
}

// The multi-rank fixtures carry record_param_comms ops and NCCL kernels: the collectives
// joined while the activities pass are the ones the whole trace gave.
TEST(StreamedKinetoImport, JoinsCollectivesAsTheActivitiesPass) {
    const char* rank0 =
        "multirank/param_dlrm_kineto/worker0_step_12.1694128201545.pt.trace.json.gz";
    ASSERT_FALSE(import_kineto_trace(testing::shared_trace_path(rank0)).collectives.empty());
    expect_streamed_equals_whole(rank0, 101);
}

// The Nsight Systems export's 137 activities in runs of 7: twenty runs merged from disk.
TEST(StreamedNsysImport, EqualsTheWholeImportWithRunsOnDisk) {
    const char* relative = "nsys/a100_saxpy_mpi_cuda.sqlite";
    ASSERT_EQ(stream_nsys_sqlite(testing::shared_trace_path(relative), {7}).activity_count, 137);
    expect_streamed_equals_whole(relative, 7, stream_nsys_sqlite);
}

}  // namespace
}  // namespace trainscope::profiler
