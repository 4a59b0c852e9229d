// Data-parallel cells as a user runs them: `--ranks 2` starts the cell under mpirun, a
// rank that dies fails its cell naming the rank, and the matrix goes on.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "harness/isolation/RankLaunch.hpp"
#include "profiler/analysis/CollectiveBandwidth.hpp"
#include "profiler/analysis/CollectiveMatching.hpp"
#include "profiler/analysis/ControlCollectives.hpp"
#include "profiler/analysis/RankTimeBreakdown.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

const std::string kSmall =
    "run --backend cpu --dataset synthetic --input 1x16x16 --batch 64 --threads 1 ";

double query(const std::filesystem::path& db, const std::string& sql) {
    const reports::ResultsDatabase results(db, reports::OpenMode::ReadOnly);
    auto statement = results.prepare(sql);
    EXPECT_TRUE(statement.step()) << sql;
    return statement.column_double(0);
}

#define TS_REQUIRE_MPIRUN()                                                        \
    if (harness::find_mpirun().empty())                                            \
    GTEST_SKIP() << "mpirun is not on PATH (apt install openmpi-bin): multi-rank " \
                    "cells cannot start"

TEST(RanksAxis, TwoRankCellRecordsBothBatchesAndTheSameLoss) {
    TS_REQUIRE_MPIRUN();
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto result =
        run_trainscope(kSmall + "--steps 12 --ranks 1,2 --precision fp64 --out " + db.string());
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(query(db, "SELECT count(*) FROM runs WHERE ranks = 2 AND status = 'ok'"), 1.0);
    const std::string two = "(SELECT id FROM runs WHERE ranks = 2)";
    const std::string one = "(SELECT id FROM runs WHERE ranks = 1)";
    EXPECT_EQ(query(db, "SELECT value FROM metrics WHERE name = 'rank_batch' AND run_id = " + two),
              32.0);
    EXPECT_EQ(
        query(db, "SELECT value FROM metrics WHERE name = 'global_batch' AND run_id = " + two),
        64.0);
    const double loss_one =
        query(db, "SELECT value FROM metrics WHERE name = 'final_loss' AND run_id = " + one);
    const double loss_two =
        query(db, "SELECT value FROM metrics WHERE name = 'final_loss' AND run_id = " + two);
    EXPECT_NEAR(loss_two, loss_one, 1e-10 * loss_one);
    EXPECT_GE(query(db,
                    "SELECT count(*) FROM metrics WHERE name = "
                    "'communication_share/rank1' AND run_id = " +
                        two),
              1.0);
    EXPECT_NE(result.output.find("scaling eff."), std::string::npos) << result.output;

    // compare shows the same efficiency: 1.00 for the 1-rank cell, a figure for the other.
    const auto compared = run_trainscope("compare " + db.string());
    ASSERT_EQ(compared.exit_code, 0) << compared.output;
    EXPECT_NE(compared.output.find("scaling eff."), std::string::npos) << compared.output;
    const double efficiency =
        query(db,
              "SELECT a.value / (2 * b.value) FROM metrics a, metrics b WHERE a.name = "
              "'images_per_s' AND b.name = 'images_per_s' AND a.run_id = " +
                  two + " AND b.run_id = " + one);
    EXPECT_NE(compared.output.find(fmt::format("{:.2f}", efficiency)), std::string::npos)
        << efficiency << "\n"
        << compared.output;
    EXPECT_NE(compared.output.find("1.00"), std::string::npos) << compared.output;
}

// The host tracer hears each rank's MPI all-reduces (the communicator's NVTX start/end
// ranges); the stored run holds them per rank, on communication lanes, numbered alike.
TEST(RanksAxis, ATracedTwoRankCellStoresEveryRanksAllReduces) {
    TS_REQUIRE_MPIRUN();
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto result = run_trainscope(
        kSmall + "--steps 6 --warmup 1 --ranks 2 --trace kernels --out " + db.string());
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::string per_rank =
        "SELECT count(*) FROM collectives WHERE kind = 1 AND bytes > 0 AND end_ns > start_ns "
        "AND rank = ";
    const double rank0 = query(db, per_rank + "0");
    EXPECT_GE(rank0, 1.0);
    EXPECT_EQ(query(db, per_rank + "1"), rank0);
    EXPECT_EQ(query(db, "SELECT min(group_size) FROM collectives"), 2.0);
    // Every all-reduce says its elements and type: the fp32 gradient buckets in floats,
    // the blocking loss sum (marked too, as broadcast and barrier are) in two doubles.
    EXPECT_EQ(query(db,
                    "SELECT count(*) FROM collectives c JOIN strings s ON s.run_id = c.run_id "
                    "AND s.id = c.dtype_id WHERE c.kind = 1 AND NOT ((s.value = 'float' AND "
                    "c.bytes = 4 * c.elements) OR (s.value = 'double' AND c.bytes = 8 * "
                    "c.elements)) AND c.elements > 0"),
              0.0);
    EXPECT_EQ(query(db, "SELECT count(*) FROM collectives WHERE kind = 1 AND elements = 0"), 0.0);
    EXPECT_GE(query(db,
                    "SELECT count(*) FROM collectives c JOIN strings s ON s.run_id = c.run_id "
                    "AND s.id = c.dtype_id WHERE c.rank = 0 AND s.value = 'double' AND "
                    "c.elements = 2"),
              6.0)
        << "one blocking loss sum per step";
    // Ranks issue the same all-reduces in the same order: every (sequence, bytes) of rank 0
    // is rank 1's too, which is how the straggler analysis pairs them.
    EXPECT_EQ(query(db,
                    "SELECT count(*) FROM collectives a JOIN collectives b ON a.run_id = "
                    "b.run_id AND a.sequence = b.sequence AND a.bytes = b.bytes WHERE a.rank = "
                    "0 AND b.rank = 1 AND a.sequence >= 0"),
              rank0);

    // The loss sums and stop votes between steps are control collectives: in the trace,
    // matched across ranks, but out of the step's communication analyses.
    const std::string control =
        "SELECT count(*) FROM collectives c JOIN strings s ON s.run_id = c.run_id AND s.id = "
        "c.group_id WHERE s.value = 'trainscope.control' AND c.rank = 0";
    EXPECT_GE(query(db, control + " AND c.elements = 1"), 6.0) << "one stop vote per step";
    EXPECT_EQ(query(db, control + " AND c.elements = 2"),
              query(db,
                    "SELECT count(*) FROM collectives c JOIN strings s ON s.run_id = "
                    "c.run_id AND s.id = c.dtype_id WHERE c.rank = 0 AND s.value = "
                    "'double' AND c.elements = 2"));
    const double gradient_rank0 = rank0 - query(db, control);
    ASSERT_GE(gradient_rank0, 6.0);
    const reports::ResultsDatabase results(db, reports::OpenMode::ReadOnly);
    const auto runs =
        reports::load_runs(results, {}, reports::RunParts{true, true, false, false, true});
    ASSERT_EQ(runs.size(), 1u);
    ASSERT_TRUE(runs[0].trace);
    const profiler::Trace& trace = *runs[0].trace;
    const auto stragglers = profiler::analyze_stragglers(trace);
    EXPECT_EQ(static_cast<double>(stragglers.collectives.size()), gradient_rank0);
    for (const auto& row : profiler::analyze_collective_bandwidth(trace))
        EXPECT_GT(row.bytes, 16) << "no row of the 8-byte vote or the 16-byte loss sum";
    std::int64_t vote_ns = 0;
    for (const profiler::Activity& a : trace.activities) {
        if (a.kind == profiler::ActivityKind::Collective &&
            trace.strings.at(a.name) == "all_reduce (control)")
            vote_ns += a.end_ns - a.start_ns;
    }
    EXPECT_GT(vote_ns, 0) << "the control collectives are on the timeline";
    std::int64_t communication_ns = 0;
    for (const auto& row : profiler::analyze_rank_time_breakdown(trace))
        communication_ns += row.communication_ns;
    std::int64_t gradient_ns = 0;
    for (const profiler::CollectiveCall& c : trace.collectives) {
        if (!profiler::is_control_collective(trace, c))
            gradient_ns += c.end_ns - c.start_ns;
    }
    EXPECT_LE(communication_ns, gradient_ns) << "the union of the gradients' all-reduces only";
}

// Without --threads the two ranks divide the machine's cores (2 ranks on 2 cores: one
// worker each, not two), and each rank's count is recorded.
TEST(RanksAxis, RanksWithoutThreadsDivideTheCores) {
    TS_REQUIRE_MPIRUN();
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto result = run_trainscope(
        "run --backend cpu --dataset synthetic --input 1x16x16 --batch 64 "
        "--steps 3 --warmup 1 --ranks 2 --out " +
        db.string());
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const double expected = std::max(1, cores / 2);
    EXPECT_EQ(query(db, "SELECT threads FROM runs WHERE ranks = 2"), expected);
    EXPECT_EQ(query(db,
                    "SELECT CAST(value AS INTEGER) FROM environment WHERE key = "
                    "'threads/rank1'"),
              expected);
    EXPECT_EQ(query(db,
                    "SELECT count(*) FROM environment WHERE key = 'threads_default' AND "
                    "value LIKE '%/ 2'"),
              1.0);
}

TEST(RanksAxis, AKilledRankFailsItsCellNamingTheRankAndTheMatrixGoesOn) {
    TS_REQUIRE_MPIRUN();
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto result = run_trainscope(kSmall +
                                       "--steps 30 --ranks 2,1 --inject-fault "
                                       "crash@1:ranks=2 --out " +
                                       db.string());
    EXPECT_EQ(result.exit_code, 1) << result.output;
    const reports::ResultsDatabase results(db, reports::OpenMode::ReadOnly);
    auto failed = results.prepare("SELECT error FROM runs WHERE ranks = 2 AND status = 'failed'");
    ASSERT_TRUE(failed.step()) << result.output;
    const std::string error = failed.column_text(0);
    EXPECT_NE(error.find("rank 1"), std::string::npos) << error;
    EXPECT_NE(error.find("signal 11"), std::string::npos) << error;
    EXPECT_EQ(query(db, "SELECT count(*) FROM runs WHERE ranks = 1 AND status = 'ok'"), 1.0);
}

TEST(RanksAxis, AHangingRankEndsAtTheCellTimeout) {
    TS_REQUIRE_MPIRUN();
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto started = std::chrono::steady_clock::now();
    const auto result = run_trainscope(kSmall +
                                       "--steps 30 --ranks 2 --timeout 15 "
                                       "--inject-fault hang@1:ranks=2 --out " +
                                       db.string());
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_LT(seconds, 60.0);
    const reports::ResultsDatabase results(db, reports::OpenMode::ReadOnly);
    auto failed = results.prepare("SELECT error FROM runs WHERE status = 'failed'");
    ASSERT_TRUE(failed.step()) << result.output;
    EXPECT_NE(failed.column_text(0).find("timeout"), std::string::npos) << failed.column_text(0);
}

TEST(RanksAxis, ABatchThatDoesNotDivideIsAPlanningError) {
    const auto result = run_trainscope(kSmall + "--steps 5 --ranks 3 --dry-run");
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_NE(result.output.find("does not divide among 3 ranks"), std::string::npos)
        << result.output;
}

}  // namespace
}  // namespace trainscope
