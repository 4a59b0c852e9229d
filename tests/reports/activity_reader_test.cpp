// ActivityReader gives, by index, exactly the activities load_trace gives in the same place,
// one at a time or a scattered set read as rowid ranges, and refuses an index past the end
// or a run without a trace with a message naming the file.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "reports/store/ActivityReader.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {
namespace {

void expect_same(const profiler::Activity& got, const profiler::Activity& want) {
    EXPECT_EQ(got.start_ns, want.start_ns);
    EXPECT_EQ(got.end_ns, want.end_ns);
    EXPECT_EQ(got.correlation, want.correlation);
    EXPECT_EQ(got.bytes, want.bytes);
    EXPECT_EQ(got.lane, want.lane);
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.kind, want.kind);
    EXPECT_EQ(got.copy_kind, want.copy_kind);
    EXPECT_EQ(got.depth, want.depth);
    EXPECT_EQ(got.grid, want.grid);
    EXPECT_EQ(got.block, want.block);
    EXPECT_EQ(got.registers_per_thread, want.registers_per_thread);
    EXPECT_EQ(got.shared_memory_bytes, want.shared_memory_bytes);
    EXPECT_EQ(got.graph_id, want.graph_id);
    EXPECT_EQ(got.device, want.device);
    EXPECT_EQ(got.flops, want.flops);
}

// Two runs, so that the second's rowids do not start at 1.
struct TwoRuns {
    testing::TempDir dir;
    std::int64_t second = 0;
    TwoRuns() {
        ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
        RunWriter writer(db);
        (void)writer.write(testing::sample_run());
        RunRecord run = testing::sample_run();
        profiler::Trace& trace = *run.trace;
        const profiler::Activity kernel = trace.activities.back();
        for (int i = 0; i < 100; ++i) {
            profiler::Activity a = kernel;
            a.start_ns = 1000 + i * 10;
            a.end_ns = a.start_ns + 5 + i % 3;
            a.correlation = 500 + static_cast<std::uint64_t>(i);
            a.grid = {i, 2, 3};
            a.flops = static_cast<float>(i) * 0.5F;
            trace.activities.push_back(a);
        }
        second = writer.write(run);
    }
};

TEST(ActivityReader, ReadsEachActivityAsLoadTraceDoes) {
    TwoRuns runs;
    ResultsDatabase db(runs.dir / "r.db", OpenMode::ReadOnly);
    const auto trace = load_trace(db, runs.second);
    ASSERT_TRUE(trace.has_value());
    const ActivityReader reader(runs.dir / "r.db", runs.second);
    ASSERT_EQ(reader.size(), trace->activities.size());
    for (std::size_t i = 0; i < trace->activities.size(); ++i)
        expect_same(reader.read(i), trace->activities[i]);
}

TEST(ActivityReader, ReadsAScatteredSetInOrder) {
    TwoRuns runs;
    ResultsDatabase db(runs.dir / "r.db", OpenMode::ReadOnly);
    const auto trace = load_trace(db, runs.second);
    ASSERT_TRUE(trace.has_value());
    const ActivityReader reader(runs.dir / "r.db", runs.second);
    const std::vector<std::uint32_t> wanted = {
        0, 3, 4, 5, 40, 41, 99, static_cast<std::uint32_t>(reader.size() - 1)};
    const auto got = reader.read(wanted);
    ASSERT_EQ(got.size(), wanted.size());
    for (std::size_t k = 0; k < wanted.size(); ++k)
        expect_same(got[k], trace->activities[wanted[k]]);
    EXPECT_TRUE(reader.read(std::vector<std::uint32_t>{}).empty());
}

TEST(ActivityReader, RefusesAnIndexPastTheEndAndARunWithoutATrace) {
    TwoRuns runs;
    const ActivityReader reader(runs.dir / "r.db", runs.second);
    try {
        (void)reader.read(reader.size());
        FAIL() << "an index past the end was read";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("past the last"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("r.db"), std::string::npos) << e.what();
    }
    // Still usable after the refusal.
    EXPECT_NO_THROW((void)reader.read(0));
    EXPECT_THROW(ActivityReader(runs.dir / "r.db", 12345), StoreError);
}

}  // namespace
}  // namespace trainscope::reports
