// A stored run's rows are decoded on threads of their own beside the one that visits them
// (scan_activities, load_trace; common/BatchPipe.hpp): one for a small run, two taking
// chunks in turn, each on its own connection, for a large one. The visitor sees every row
// once, in order, with its index, as on one thread; however it leaves (it stops, throws, or
// a row is damaged) the decoding threads are released and joined, and the connection stays
// usable; a writer's commit during the read leaves the caller's state of the file. The
// tsan preset builds and runs these too.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "profiler/sqlite/SqliteReadSnapshot.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {
namespace {

// Both sizes are many of the pipe's batches (2048 rows), more than it holds at once (4);
// the large one is read by two decoding threads (from 65,536 rows).
constexpr std::int64_t kSmallRun = 30'000;
constexpr std::int64_t kLargeRun = 100'000;

// A run of `activities` kernels; kernel i starts at i * 100 ns.
std::int64_t write_run(const ResultsDatabase& db, std::int64_t activities) {
    return RunWriter(db).write(testing::sample_run_of_kernels(activities));
}

profiler::Trace header_of(const ResultsDatabase& db, std::int64_t id) {
    auto header = load_trace_header(db, id);
    EXPECT_TRUE(header.has_value());
    return header ? std::move(*header) : profiler::Trace{};
}

// The rows a whole scan visits, each checked to be the next one write_run wrote: the
// connection works after an earlier scan's exit. -1 when a row came out of order.
std::int64_t rows_of_a_whole_scan(const ResultsDatabase& db, std::int64_t id,
                                  const profiler::Trace& header) {
    std::int64_t rows = 0;
    bool in_order = true;
    EXPECT_TRUE(scan_activities(db, id, header, [&](const profiler::Activity& a, std::size_t) {
        in_order = in_order && a.start_ns == rows * 100;
        ++rows;
        return true;
    }));
    return in_order ? rows : -1;
}

class StoredRowsPipe : public ::testing::TestWithParam<std::int64_t> {
  protected:
    StoredRowsPipe() : db_(dir_ / "r.db", OpenMode::CreateOrOpen) {
        id_ = write_run(db_, GetParam());
        header_ = header_of(db_, id_);
    }
    testing::TempDir dir_;
    ResultsDatabase db_;
    std::int64_t id_ = 0;
    profiler::Trace header_;
};

TEST_P(StoredRowsPipe, EveryRowArrivesOnceInOrderWithItsIndex) {
    const ResultsDatabase& db = db_;
    const std::int64_t id = id_;
    const profiler::Trace& header = header_;
    const std::int64_t activities = GetParam();
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
    EXPECT_EQ(next, activities);
    // load_trace reads through the same pipe: the same rows.
    const auto trace = load_trace(db, id);
    ASSERT_TRUE(trace.has_value());
    ASSERT_EQ(static_cast<std::int64_t>(trace->activities.size()), activities);
    EXPECT_EQ(trace->activities.back().start_ns, (activities - 1) * 100);
}

TEST_P(StoredRowsPipe, AVisitorThatStopsEarlyReleasesTheDecoders) {
    const ResultsDatabase& db = db_;
    const std::int64_t id = id_;
    const profiler::Trace& header = header_;
    std::int64_t visited = 0;
    // Far fewer rows than the run holds: the decoder is waiting for an empty batch.
    EXPECT_FALSE(scan_activities(
        db, id, header, [&](const profiler::Activity&, std::size_t) { return ++visited < 5000; }));
    EXPECT_EQ(visited, 5000);
    EXPECT_EQ(rows_of_a_whole_scan(db, id, header), GetParam());
}

TEST_P(StoredRowsPipe, AVisitorThatThrowsReleasesTheDecoders) {
    const ResultsDatabase& db = db_;
    const std::int64_t id = id_;
    const profiler::Trace& header = header_;
    EXPECT_THROW(scan_activities(db, id, header,
                                 [](const profiler::Activity&, std::size_t index) {
                                     if (index == 3000)
                                         throw std::runtime_error("the visitor failed");
                                     return true;
                                 }),
                 std::runtime_error);
    EXPECT_EQ(rows_of_a_whole_scan(db, id, header), GetParam());
}

TEST_P(StoredRowsPipe, ADamagedRowFailsAfterTheRowsBeforeItAreVisited) {
    const ResultsDatabase& db = db_;
    const std::int64_t id = id_;
    const profiler::Trace& header = header_;
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
    EXPECT_EQ(visited, 6000);
}

// The stop flag raised mid-read (the GUI's Cancel): SQLite is interrupted on the decoding
// threads' connections, the read ends as stopped, and the connection stays usable.
TEST_P(StoredRowsPipe, AStopRaisedDuringTheReadEndsIt) {
    std::atomic<bool> stop{false};
    int reports_seen = 0;
    TraceLoadControl control;
    control.stop = &stop;
    control.progress = [&](double) {
        ++reports_seen;
        stop = true;
    };
    EXPECT_THROW((void)load_trace(db_, id_, control), TraceLoadStopped);
    EXPECT_EQ(reports_seen, 1);
    EXPECT_EQ(rows_of_a_whole_scan(db_, id_, header_), GetParam());
}

// The large run is really read by two decoding threads (each test above runs both ways).
TEST_P(StoredRowsPipe, ALargeRunIsDecodedOnTwoThreads) {
    if (std::thread::hardware_concurrency() < 2)
        GTEST_SKIP() << "one core: every read keeps one decoding thread";
    const profiler::SqliteReadSnapshot snapshot(db_);
    ASSERT_TRUE(load_trace_header(db_, id_).has_value());  // the snapshot starts here
    EXPECT_EQ(detail::row_decoders(db_, id_), GetParam() == kLargeRun ? 2u : 1u);
}

INSTANTIATE_TEST_SUITE_P(OneAndTwoDecoders, StoredRowsPipe,
                         ::testing::Values(kSmallRun, kLargeRun));

// `run --resume` replacing the run while `analyze` reads it: the second decoder's
// connection would see the run gone, so the read stays on the caller's connection and its
// state (the snapshot the commands hold, profiler/sqlite/SqliteReadSnapshot).
TEST(StoredRowsPipeSnapshot, AWriterCommittingBeforeTheReadLeavesTheCallersState) {
    testing::TempDir dir;
    const ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const std::int64_t id = write_run(db, kLargeRun);
    const profiler::Trace header = header_of(db, id);
    {
        const profiler::SqliteReadSnapshot snapshot(db);
        ASSERT_TRUE(load_trace_header(db, id).has_value());  // the snapshot starts here
        {
            const ResultsDatabase writer(dir / "r.db", OpenMode::CreateOrOpen);
            writer.exec("DELETE FROM activities");
            writer.exec("DELETE FROM runs");
        }
        EXPECT_EQ(detail::row_decoders(db, id), 1u);
        EXPECT_EQ(rows_of_a_whole_scan(db, id, header), kLargeRun);
    }
    // The writer did commit: outside the snapshot the run is gone.
    EXPECT_FALSE(load_trace_header(db, id).has_value());
}

// The newest run deleted and a replacement written (ids and rowids are not AUTOINCREMENT:
// it gets the same id and rowids, and here the same count and times of day): only its
// rows differ, and the read still gives the caller's.
TEST(StoredRowsPipeSnapshot, AReplacementWithTheSameIdAndRowidsLeavesTheCallersRows) {
    testing::TempDir dir;
    const ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const std::int64_t id = write_run(db, kLargeRun);
    const profiler::Trace header = header_of(db, id);
    {
        const profiler::SqliteReadSnapshot snapshot(db);
        ASSERT_TRUE(load_trace_header(db, id).has_value());
        {
            const ResultsDatabase writer(dir / "r.db", OpenMode::CreateOrOpen);
            writer.exec("DELETE FROM activities");
            writer.exec("DELETE FROM runs");
            RunRecord replacement = testing::sample_run_of_kernels(kLargeRun);
            for (profiler::Activity& a : replacement.trace->activities) {
                a.start_ns += 7;
                a.end_ns += 7;
            }
            ASSERT_EQ(RunWriter(writer).write(replacement), id);
        }
        EXPECT_EQ(detail::row_decoders(db, id), 1u);
        EXPECT_EQ(rows_of_a_whole_scan(db, id, header), kLargeRun);
    }
    // Outside the snapshot the replacement's rows are read, on two threads again.
    const profiler::SqliteReadSnapshot snapshot(db);
    std::int64_t rows = 0;
    bool shifted = true;
    EXPECT_TRUE(scan_activities(db, id, header, [&](const profiler::Activity& a, std::size_t) {
        shifted = shifted && a.start_ns == rows * 100 + 7;
        ++rows;
        return true;
    }));
    EXPECT_TRUE(shifted);
    EXPECT_EQ(rows, kLargeRun);
}

}  // namespace
}  // namespace trainscope::reports
