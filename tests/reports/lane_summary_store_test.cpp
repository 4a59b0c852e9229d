// The level-of-detail summaries written with a trace (lane_summaries) read back exactly as
// profiler::summarize_rows makes them, deflated to a fraction of their packed size; a run
// stored without them reads as "none made", a version-5 file's packed ones still read, and
// a damaged record is the file's fault, said as such.
#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "SchemaVersionThree.hpp"
#include "StoredSummaries.hpp"
#include "TempDir.hpp"
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
