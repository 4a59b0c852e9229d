// The level-of-detail summaries written with a trace (lane_summaries) read back exactly as
// profiler::summarize_rows makes them, deflated to a fraction of their packed size; a run
// stored without them reads as "none made", a version-5 file's packed ones still read, and
// a damaged record is the file's fault, said as such.
#include <gtest/gtest.h>
#include <zlib.h>

#include <string_view>

#include "SampleRun.hpp"
#include "SchemaVersionThree.hpp"
#include "StoredSummaries.hpp"
#include "TempDir.hpp"
#include "profiler/analysis/RowSummarizer.hpp"
#include "profiler/trace/TraceNesting.hpp"
#include "reports/store/LaneSummaryStore.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/SqliteError.hpp"

namespace trainscope::reports {
namespace {

// The sample run with a dense stream: 20,000 kernels, 4 to 60 ns apart, so that levels of
// several widths are kept.
RunRecord dense_run() {
    RunRecord run = testing::sample_run();
    profiler::Trace& trace = *run.trace;
    const profiler::Activity kernel = trace.activities.back();
    std::int64_t t = 0;
    for (int i = 0; i < 20'000; ++i) {
        profiler::Activity a = kernel;
        a.start_ns = t;
        a.end_ns = t + 3 + i % 50;
        t += 4 + (i * 7919) % 57;
        trace.activities.push_back(a);
    }
    return run;
}

void expect_summaries(const ResultsDatabase& db, std::int64_t id, const RunRecord& run) {
    testing::expect_stored_summaries(db, id, profiler::summarize_rows(*run.trace));
}

TEST(LaneSummaryStore, ReadsBackWhatSummarizeRowsMakes) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const RunRecord run = dense_run();
    expect_summaries(db, RunWriter(db).write(run), run);
}

// The lane_summaries rows of a run, blobs included, by (lane, depth, level).
std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                       std::int64_t, std::vector<std::byte>>>
stored_rows(const ResultsDatabase& db, std::int64_t run_id) {
    auto q = db.prepare(
        "SELECT lane, depth, level, width_ns, origin_ns, bucket_count, buckets FROM "
        "lane_summaries WHERE run_id = ?1 ORDER BY lane, depth, level");
    q.bind(1, run_id);
    std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                           std::int64_t, std::vector<std::byte>>>
        rows;
    while (q.step()) {
        const auto blob = q.column_blob(6);
        rows.emplace_back(q.column_int64(0), q.column_int64(1), q.column_int64(2),
                          q.column_int64(3), q.column_int64(4), q.column_int64(5),
                          std::vector<std::byte>(blob.begin(), blob.end()));
    }
    return rows;
}

// A streamed import's long rows write their levels' final buckets to a temporary file as
// they are made, and the store deflates them from there into the row in pieces: made so
// every few buckets (and through a stretch busy without a gap, whose buckets wait for the
// union), the stored rows are byte for byte those of the levels made in memory.
TEST(LaneSummaryStore, SpilledLevelsAreStoredAsTheLevelsMadeInMemory) {
    RunRecord run = dense_run();
    profiler::Trace& trace = *run.trace;
    const profiler::Activity kernel = trace.activities.back();
    std::int64_t t = kernel.end_ns + 100;
    for (int i = 0; i < 5'000; ++i) {  // back to back: one union
        profiler::Activity a = kernel;
        a.start_ns = t;
        a.end_ns = t + 20 + i % 13;
        t = a.end_ns;
        trace.activities.push_back(a);
    }
    profiler::assign_nesting_depths(trace);

    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const std::int64_t in_memory = RunWriter(db).write(run);
    const std::int64_t spilled = RunWriter(db).write(run);
    db.prepare("DELETE FROM lane_summaries WHERE run_id = ?1").bind(1, spilled).run();
    db.prepare("DELETE FROM lane_summary_runs WHERE run_id = ?1").bind(1, spilled).run();

    std::int64_t origin = trace.activities.front().start_ns;
    for (const profiler::Activity& a : trace.activities)
        origin = std::min(origin, a.start_ns);
    profiler::LaneSummaryStream stream(trace.lanes, origin, 3);
    for (const profiler::Activity& a : trace.activities)
        stream.plan(a);
    std::vector<profiler::RowSummaryLevel> levels;
    stream.set_plan(stream.take_plan(), [&levels](std::vector<profiler::RowSummaryLevel>&& lane) {
        for (auto& l : lane)
            levels.push_back(std::move(l));
    });
    for (const profiler::Activity& a : trace.activities)
        stream.add(a);
    stream.finish();
    std::size_t spilled_levels = 0;
    for (const auto& l : levels)
        spilled_levels += l.spilled.chunks.size() > 1 ? 1 : 0;
    ASSERT_GE(spilled_levels, 2u);
    LaneSummaryWriter(db, spilled).write(levels);

    const auto want = stored_rows(db, in_memory);
    ASSERT_GE(want.size(), 3u);
    // zlib 1.x deflates the pieces as it deflates the whole; zlib-ng may cut its blocks
    // otherwise, and then only the records (compared next) are the same.
    if (std::string_view(zlibVersion()).find("zlib-ng") == std::string_view::npos) {
        EXPECT_TRUE(stored_rows(db, spilled) == want);
    }
    expect_summaries(db, spilled, run);
}

// The file's size per activity: the summaries cost a few bytes per activity packed (41 a
// bucket); written deflated they must take well under half of that.
TEST(LaneSummaryStore, AreStoredInLessThanHalfTheirPackedSize) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    (void)RunWriter(db).write(dense_run());
    auto sizes = db.prepare("SELECT SUM(bucket_count), SUM(length(buckets)) FROM lane_summaries");
    ASSERT_TRUE(sizes.step());
    const auto packed = sizes.column_int64(0) * static_cast<std::int64_t>(kLaneSummaryRecordBytes);
    ASSERT_GT(packed, 10'000);
    EXPECT_LT(sizes.column_int64(1) * 2, packed);
}

// A file of version 5 keeps its summaries packed: they read as they are, and a writer that
// upgrades the file leaves them so while it deflates the runs it adds.
TEST(LaneSummaryStore, AVersionFiveFilesPackedSummariesReadBeforeAndAfterTheUpgrade) {
    testing::TempDir dir;
    const auto path = dir / "v5.db";
    const RunRecord run = dense_run();
    std::int64_t id = 0;
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        id = RunWriter(db).write(run);
        testing::drop_version_six(db);
    }
    {
        ResultsDatabase db(path, OpenMode::ReadOnly);
        ASSERT_EQ(db.schema_version(), 5);
        expect_summaries(db, id, run);
    }
    ResultsDatabase db(path, OpenMode::CreateOrOpen);
    EXPECT_EQ(db.schema_version(), kSchemaVersion);
    expect_summaries(db, id, run);
    expect_summaries(db, RunWriter(db).write(run), run);
}

TEST(LaneSummaryStore, ASmallTraceIsSummarizedWithNoLevelKept) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const auto id = RunWriter(db).write(testing::sample_run());
    const auto loaded = load_lane_summaries(db, id);
    ASSERT_TRUE(loaded.has_value());
    EXPECT_TRUE(loaded->empty());
}

TEST(LaneSummaryStore, ARunStoredWithoutThemHasNone) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const auto id = RunWriter(db).write(dense_run());
    db.prepare("DELETE FROM lane_summary_runs").run();  // as a run stored before schema 4
    EXPECT_FALSE(load_lane_summaries(db, id).has_value());
}

// A file of version 3 has no summaries: read as none, and a writer adds the tables.
TEST(LaneSummaryStore, AVersionThreeFileHasNoneUntilAWriterUpgradesIt) {
    testing::TempDir dir;
    const auto path = dir / "v3.db";
    std::int64_t id = 0;
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        id = RunWriter(db).write(dense_run());
        testing::drop_version_four(db);
    }
    {
        ResultsDatabase db(path, OpenMode::ReadOnly);
        EXPECT_FALSE(load_lane_summaries(db, id).has_value());
    }
    ResultsDatabase db(path, OpenMode::CreateOrOpen);
    EXPECT_EQ(db.schema_version(), kSchemaVersion);
    EXPECT_FALSE(load_lane_summaries(db, id).has_value()) << "stored before them";
    const auto added = RunWriter(db).write(dense_run());
    ASSERT_TRUE(load_lane_summaries(db, added).has_value());
    EXPECT_FALSE(load_lane_summaries(db, added)->empty());
}

// A count far beyond what the stored bytes can inflate to is the file's damage, said as
// such, not an allocation of that size (packed, as a version-5 file has them, too).
TEST(LaneSummaryStore, AnImpossibleBucketCountIsReportedAsADamagedFile) {
    const std::vector<std::byte> blob(100);
    for (const auto encoding :
         {LaneSummaryEncoding::ShuffledDeflate, LaneSummaryEncoding::Packed}) {
        try {
            (void)unpack_lane_summary_blob(encoding, blob, std::size_t(1) << 40, "a test file");
            FAIL() << "an impossible count was read";
        } catch (const StoreError& e) {
            EXPECT_NE(std::string(e.what()).find("damaged"), std::string::npos) << e.what();
        }
    }
}

TEST(LaneSummaryStore, ADamagedRecordIsReportedAsADamagedFile) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const auto id = RunWriter(db).write(dense_run());
    db.prepare("UPDATE lane_summaries SET buckets = substr(buckets, 1, 5)").run();
    try {
        (void)load_lane_summaries(db, id);
        FAIL() << "a cut record was read";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("damaged"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace trainscope::reports
