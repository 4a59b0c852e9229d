// A stored run's rows are decoded on a thread of their own beside the one that visits
// them (scan_activities, load_trace; common/BatchPipe.hpp). The visitor sees every row
// once, in order, with its index, as on one thread; however it leaves (it stops, throws, or
// a row is damaged) the decoding thread is released and joined, and the connection stays
// usable. The tsan preset builds and runs these too.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {
namespace {

// Many of the pipe's batches (2048 rows), more than it holds at once (4).
constexpr std::int64_t kActivities = 30'000;

// A run of kActivities kernels; kernel i starts at i * 100 ns.
std::int64_t write_run(const ResultsDatabase& db) {
    RunRecord run = testing::sample_run();
    profiler::Trace& trace = *run.trace;
    const profiler::Activity kernel = trace.activities.back();
    trace.activities.clear();
    for (std::int64_t i = 0; i < kActivities; ++i) {
        profiler::Activity a = kernel;
        a.start_ns = i * 100;
        a.end_ns = a.start_ns + 50;
        trace.activities.push_back(a);
    }
    return RunWriter(db).write(run);
}

profiler::Trace header_of(const ResultsDatabase& db, std::int64_t id) {
    auto header = load_trace_header(db, id);
    EXPECT_TRUE(header.has_value());
    return header ? std::move(*header) : profiler::Trace{};
}

// The rows a whole scan visits: the connection works after an earlier scan's exit.
std::int64_t rows_of_a_whole_scan(const ResultsDatabase& db, std::int64_t id,
                                  const profiler::Trace& header) {
    std::int64_t rows = 0;
    EXPECT_TRUE(scan_activities(db, id, header, [&](const profiler::Activity&, std::size_t) {
        ++rows;
        return true;
    }));
    return rows;
}

TEST(StoredRowsPipe, EveryRowArrivesOnceInOrderWithItsIndex) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const auto id = write_run(db);
    const profiler::Trace header = header_of(db, id);
    std::int64_t next = 0;
    bool in_order = true;
    const bool completed = scan_activities(
        db, id, header,
        [&](const profiler::Activity& a, std::size_t index) {
            in_order = in_order && static_cast<std::int64_t>(index) == next &&
                       a.start_ns == next * 100 && a.end_ns == next * 100 + 50;
            ++next;
            return true;
        },
        ActivityColumns::analysis);
    EXPECT_TRUE(completed);
    EXPECT_TRUE(in_order);
    EXPECT_EQ(next, kActivities);
    // load_trace reads through the same pipe: the same rows.
    const auto trace = load_trace(db, id);
    ASSERT_TRUE(trace.has_value());
    ASSERT_EQ(static_cast<std::int64_t>(trace->activities.size()), kActivities);
    EXPECT_EQ(trace->activities.back().start_ns, (kActivities - 1) * 100);
}

TEST(StoredRowsPipe, AVisitorThatStopsEarlyReleasesTheDecoder) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const auto id = write_run(db);
    const profiler::Trace header = header_of(db, id);
    std::int64_t visited = 0;
    // Far fewer rows than the run holds: the decoder is waiting for an empty batch.
    EXPECT_FALSE(scan_activities(
        db, id, header, [&](const profiler::Activity&, std::size_t) { return ++visited < 5000; }));
    EXPECT_EQ(visited, 5000);
    EXPECT_EQ(rows_of_a_whole_scan(db, id, header), kActivities);
}

TEST(StoredRowsPipe, AVisitorThatThrowsReleasesTheDecoder) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const auto id = write_run(db);
    const profiler::Trace header = header_of(db, id);
    EXPECT_THROW(scan_activities(db, id, header,
                                 [](const profiler::Activity&, std::size_t index) {
                                     if (index == 3000)
                                         throw std::runtime_error("the visitor failed");
                                     return true;
                                 }),
                 std::runtime_error);
    EXPECT_EQ(rows_of_a_whole_scan(db, id, header), kActivities);
}

TEST(StoredRowsPipe, ADamagedRowFailsAfterTheRowsBeforeItAreVisited) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const auto id = write_run(db);
    const profiler::Trace header = header_of(db, id);
    // Row 7000 of the run names a string its trace does not have.
    db.exec(
        "UPDATE activities SET name_id = 1000000 WHERE rowid = "
        "(SELECT min(rowid) FROM activities) + 7000");
    std::int64_t visited = 0;
    try {
        scan_activities(db, id, header, [&](const profiler::Activity&, std::size_t) {
            ++visited;
            return true;
        });
        FAIL() << "the damaged row was not reported";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("damaged"), std::string::npos) << e.what();
    }
    EXPECT_EQ(visited, 7000);
    // A visitor that stops before the damaged row never hears of it.
    visited = 0;
    EXPECT_FALSE(scan_activities(
        db, id, header, [&](const profiler::Activity&, std::size_t) { return ++visited < 6000; }));
}

}  // namespace
}  // namespace trainscope::reports
