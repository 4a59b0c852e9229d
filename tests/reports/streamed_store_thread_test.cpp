// A streamed trace's rows are inserted on a thread of their own beside the pass that
// merges, nests and summarises them (reports::write_streamed_trace; docs/architecture.md,
// "Importing a recorded trace"). The rows stored are the ones the whole trace gives, in
// its order, and a failure on the passing side ends both threads with nothing of the run
// kept. The tsan preset builds and runs these too.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "profiler/analysis/LaneSummary.hpp"
#include "profiler/formats/KinetoImporter.hpp"
#include "reports/store/LaneSummaryStore.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {
namespace {

// Kernels on two streams and their launches: several of the store thread's blocks (4096
// rows), sorted on disk in runs of 1000.
constexpr int kKernels = 12'000;
constexpr std::size_t kRunCapacity = 1000;

std::filesystem::path write_kineto(const std::filesystem::path& file) {
    std::ofstream out(file);
    out << R"({"traceEvents":[)";
    for (int i = 0; i < kKernels; ++i) {
        const int stream = 7 + i % 2;
        out << (i == 0 ? "" : ",") << R"({"ph":"X","cat":"kernel","name":"k)" << i % 5
            << R"(","ts":)" << 10 + 2 * i << R"(,"dur":1,"pid":0,"tid":)" << stream
            << R"(,"args":{"device":0,"stream":)" << stream << R"(,"correlation":)" << i + 1
            << "}}";
        out << R"(,{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","ts":)" << 9 + 2 * i
            << R"(,"dur":1,"pid":1,"tid":1,"args":{"correlation":)" << i + 1 << "}}";
    }
    out << "]}";
    return file;
}

RunRecord streamed_run(const std::filesystem::path& file) {
    RunRecord run = testing::sample_run();
    run.trace.reset();
    run.streamed_trace = std::make_shared<profiler::StreamedTrace>(
        profiler::stream_kineto_trace(file, {kRunCapacity}));
    return run;
}

// A run stored without a trace, for a test to write a streamed trace into by hand.
std::int64_t write_traceless_run(const ResultsDatabase& db) {
    RunRecord run = testing::sample_run();
    run.trace.reset();
    return RunWriter(db).write(run);
}

std::int64_t count_activities(const ResultsDatabase& db) {
    auto count = db.prepare("SELECT COUNT(*) FROM activities");
    count.step();
    return count.column_int64(0);
}

TEST(StreamedStoreThread, StoresWhatTheWholeTraceGivesInItsOrder) {
    testing::TempDir dir;
    const auto file = write_kineto(dir / "t.json");
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const std::int64_t id = RunWriter(db).write(streamed_run(file));

    const profiler::Trace whole = profiler::import_kineto_trace(file);
    const auto stored = load_trace(db, id);
    ASSERT_TRUE(stored.has_value());
    ASSERT_EQ(whole.activities.size(), 2u * kKernels);
    ASSERT_EQ(stored->activities.size(), whole.activities.size());
    for (std::size_t i = 0; i < whole.activities.size(); ++i) {
        const profiler::Activity& want = whole.activities[i];
        const profiler::Activity& got = stored->activities[i];
        ASSERT_EQ(std::make_tuple(got.kind, got.start_ns, got.end_ns, got.correlation,
                                  stored->strings.at(got.name)),
                  std::make_tuple(want.kind, want.start_ns, want.end_ns, want.correlation,
                                  whole.strings.at(want.name)))
            << "activity " << i;
    }
}

// With its runs on disk the trace's summaries are made on a thread of their own, through a
// second reader of the runs, while the rows pass for the inserts: they are the ones the
// whole trace gives.
TEST(StreamedStoreThread, StoresTheWholeTracesSummariesMadeBesideTheInserts) {
    testing::TempDir dir;
    const auto file = write_kineto(dir / "t.json");
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const std::int64_t id = RunWriter(db).write(streamed_run(file));

    const auto expected = profiler::summarize_rows(profiler::import_kineto_trace(file));
    ASSERT_GE(expected.size(), 3u);
    const auto loaded = load_lane_summaries(db, id);
    ASSERT_TRUE(loaded.has_value());
    ASSERT_EQ(loaded->size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const auto& want = expected[i];
        const auto& got = (*loaded)[i];
        EXPECT_EQ(std::make_tuple(got.lane, got.depth, got.level, got.width_ns, got.origin_ns),
                  std::make_tuple(want.lane, want.depth, want.level, want.width_ns, want.origin_ns))
            << "level " << i;
        EXPECT_TRUE(got.buckets == want.buckets) << "level " << i;
    }
}

// A summary's insert fails on the store thread (as on a full disk): the error reaches the
// caller, both other threads are joined, and no row of the run is kept.
TEST(StreamedStoreThread, ASummaryInsertThatFailsReachesTheCaller) {
    testing::TempDir dir;
    const auto file = write_kineto(dir / "t.json");
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const std::int64_t id = write_traceless_run(db);
    db.exec(
        "CREATE TEMP TRIGGER fail_summary BEFORE INSERT ON main.lane_summaries BEGIN "
        "SELECT RAISE(ABORT, 'no space left for the summaries'); END;");

    RunRecord run = streamed_run(file);
    {
        Transaction tx(db);
        try {
            write_streamed_trace(db, id, *run.streamed_trace);
            ADD_FAILURE() << "the write did not fail";
        } catch (const SqliteError& error) {
            EXPECT_NE(std::string(error.what()).find("no space left for the summaries"),
                      std::string::npos)
                << error.what();
        }
    }
    EXPECT_EQ(count_activities(db), 0);
}

// The passing side throws half-way, while the store thread holds queued blocks: the write
// ends with that error, the thread is stopped and joined, and the transaction leaves no row.
TEST(StreamedStoreThread, AFailureWhileRowsAreQueuedKeepsNothingOfTheRun) {
    testing::TempDir dir;
    const auto file = write_kineto(dir / "t.json");
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const std::int64_t id = write_traceless_run(db);

    RunRecord run = streamed_run(file);
    std::int64_t passed = 0;
    {
        Transaction tx(db);
        try {
            write_streamed_trace(db, id, *run.streamed_trace, [&passed](const profiler::Activity&) {
                if (++passed == kKernels)
                    throw std::runtime_error("stop here");
            });
            ADD_FAILURE() << "the write did not fail";
        } catch (const std::runtime_error& error) {
            EXPECT_STREQ(error.what(), "stop here");
        }
    }
    EXPECT_EQ(passed, kKernels);
    EXPECT_EQ(count_activities(db), 0);
}

// The store thread's own insert fails half-way (as on a full disk): the error reaches the
// caller from the passing side, the thread is joined, and no row of the run is kept.
TEST(StreamedStoreThread, AnInsertThatFailsOnTheStoreThreadReachesTheCaller) {
    testing::TempDir dir;
    const auto file = write_kineto(dir / "t.json");
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const std::int64_t id = write_traceless_run(db);
    db.exec(
        "CREATE TEMP TABLE inserted (n INTEGER); INSERT INTO inserted VALUES (0);"
        "CREATE TEMP TRIGGER fail_late BEFORE INSERT ON main.activities BEGIN "
        "UPDATE inserted SET n = n + 1; "
        "SELECT RAISE(ABORT, 'no space left on the test device') "
        "WHERE (SELECT n FROM inserted) > 5000; END;");

    RunRecord run = streamed_run(file);
    {
        Transaction tx(db);
        try {
            write_streamed_trace(db, id, *run.streamed_trace);
            ADD_FAILURE() << "the write did not fail";
        } catch (const SqliteError& error) {
            EXPECT_NE(std::string(error.what()).find("no space left on the test device"),
                      std::string::npos)
                << error.what();
        }
    }
    EXPECT_EQ(count_activities(db), 0);
}

}  // namespace
}  // namespace trainscope::reports
