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
#include "StoredSummaries.hpp"
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

    testing::expect_stored_summaries(db, id,
                                     profiler::summarize_rows(profiler::import_kineto_trace(file)));
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

// A streamed write into a run whose inserts `triggers` (SQL run first) make fail on the store
// thread, as on a full disk: the error, which names `message`, reaches the caller, every
// thread is joined, and no row of the run is kept.
void expect_a_failing_insert_reaches_the_caller(const char* triggers, const char* message) {
    testing::TempDir dir;
    const auto file = write_kineto(dir / "t.json");
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const std::int64_t id = write_traceless_run(db);
    db.exec(triggers);

    RunRecord run = streamed_run(file);
    {
        Transaction tx(db);
        try {
            write_streamed_trace(db, id, *run.streamed_trace);
            ADD_FAILURE() << "the write did not fail";
        } catch (const SqliteError& error) {
            EXPECT_NE(std::string(error.what()).find(message), std::string::npos) << error.what();
        }
    }
    EXPECT_EQ(count_activities(db), 0);
}

// The store thread's own insert of a row fails half-way.
TEST(StreamedStoreThread, AnInsertThatFailsOnTheStoreThreadReachesTheCaller) {
    expect_a_failing_insert_reaches_the_caller(
        "CREATE TEMP TABLE inserted (n INTEGER); INSERT INTO inserted VALUES (0);"
        "CREATE TEMP TRIGGER fail_late BEFORE INSERT ON main.activities BEGIN "
        "UPDATE inserted SET n = n + 1; "
        "SELECT RAISE(ABORT, 'no space left on the test device') "
        "WHERE (SELECT n FROM inserted) > 5000; END;",
        "no space left on the test device");
}

// A lane's summaries, which come from the summary thread, fail to insert.
TEST(StreamedStoreThread, ASummaryInsertThatFailsReachesTheCaller) {
    expect_a_failing_insert_reaches_the_caller(
        "CREATE TEMP TRIGGER fail_summary BEFORE INSERT ON main.lane_summaries BEGIN "
        "SELECT RAISE(ABORT, 'no space left for the summaries'); END;",
        "no space left for the summaries");
}

}  // namespace
}  // namespace trainscope::reports
