// load_trace under a TraceLoadControl: progress while the activities are read, and a
// stop flag that ends the load early (the GUI's loader relies on both).
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {
namespace {

constexpr std::size_t kActivities = 100'000;

// A run whose trace holds kActivities kernels (several chunks of the load).
std::int64_t write_large_trace(const ResultsDatabase& db) {
    RunWriter writer(db);
    return writer.write(testing::sample_run_of_kernels(kActivities));
}

TEST(TraceLoadControl, ReportsProgressUpToTheWholeTrace) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const auto id = write_large_trace(db);
    std::vector<double> reported;
    TraceLoadControl control;
    control.progress = [&](double share) { reported.push_back(share); };
    const auto trace = load_trace(db, id, control);
    ASSERT_TRUE(trace.has_value());
    EXPECT_EQ(trace->activities.size(), kActivities);
    ASSERT_GE(reported.size(), 3u);  // several chunks, then the end
    for (std::size_t i = 1; i < reported.size(); ++i)
        EXPECT_GT(reported[i], reported[i - 1]);
    EXPECT_GT(reported.front(), 0.0);
    EXPECT_EQ(reported.back(), 1.0);
}

TEST(TraceLoadControl, AStopRaisedDuringTheReadEndsItAtOnce) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const auto id = write_large_trace(db);
    std::atomic<bool> stop{false};
    int reports_seen = 0;
    TraceLoadControl control;
    control.stop = &stop;
    control.progress = [&](double) {
        ++reports_seen;
        stop = true;  // as the GUI's Cancel (or a destroyed loader) does mid-load
    };
    EXPECT_THROW((void)load_trace(db, id, control), TraceLoadStopped);
    // Stopped before the next chunk was read: a loader that ignored the flag would read
    // the other chunks and report each of them.
    EXPECT_EQ(reports_seen, 1);
    // The connection stays usable (the progress handler is gone): the same load without
    // the stop completes.
    stop = false;
    control.progress = {};
    const auto trace = load_trace(db, id, control);
    ASSERT_TRUE(trace.has_value());
    EXPECT_EQ(trace->activities.size(), kActivities);
}

TEST(TraceLoadControl, AStopRaisedBeforeReadsNothing) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    const auto id = write_large_trace(db);
    std::atomic<bool> stop{true};
    bool progressed = false;
    TraceLoadControl control;
    control.stop = &stop;
    control.progress = [&](double) { progressed = true; };
    EXPECT_THROW((void)load_trace(db, id, control), TraceLoadStopped);
    EXPECT_FALSE(progressed);
}

}  // namespace
}  // namespace trainscope::reports
