// Data-parallel cells under the Slurm executor, on the real single-node cluster of the
// fixture local_slurm: the array task holds --ntasks for the cell's ranks and starts them
// with `srun --mpi=pmix`; the ranks' files meet beside the results and are merged as
// mpirun's are locally.
#include <gtest/gtest.h>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

double query(const std::filesystem::path& db, const std::string& sql) {
    const reports::ResultsDatabase results(db, reports::OpenMode::ReadOnly);
    auto statement = results.prepare(sql);
    EXPECT_TRUE(statement.step()) << sql;
    return statement.column_double(0);
}

std::string query_text(const std::filesystem::path& db, const std::string& sql) {
    const reports::ResultsDatabase results(db, reports::OpenMode::ReadOnly);
    auto statement = results.prepare(sql);
    EXPECT_TRUE(statement.step()) << sql;
    return statement.column_text(0);
}

const std::string kRanks =
    "run --executor slurm --backend cpu --dataset synthetic --input 1x16x16 --batch 64 "
    "--threads 1 --precision fp64 ";

TEST(SlurmRanks, TwoRankCellRunsAsOneSrunStepAndFollowsTheOneRankLoss) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto result = run_trainscope(kRanks + "--steps 12 --ranks 1,2 --out " + db.string());
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(query(db, "SELECT count(*) FROM runs WHERE status = 'ok'"), 2.0) << result.output;
    const std::string two = "(SELECT id FROM runs WHERE ranks = 2)";
    const std::string one = "(SELECT id FROM runs WHERE ranks = 1)";
    EXPECT_EQ(query(db, "SELECT value FROM metrics WHERE name = 'rank_batch' AND run_id = " + two),
              32.0);
    const double loss_one =
        query(db, "SELECT value FROM metrics WHERE name = 'final_loss' AND run_id = " + one);
    const double loss_two =
        query(db, "SELECT value FROM metrics WHERE name = 'final_loss' AND run_id = " + two);
    EXPECT_NEAR(loss_two, loss_one, 1e-10 * loss_one);
    // Rank 1's run came back through the shared folder and joined rank 0's.
    EXPECT_EQ(query(db,
                    "SELECT count(*) FROM metrics WHERE name = 'communication_share/rank1' AND "
                    "run_id = " +
                        two),
              1.0);
    EXPECT_FALSE(query_text(db,
                            "SELECT value FROM environment WHERE key = 'slurm_job_id' AND "
                            "run_id = " +
                                two)
                     .empty());
    // The ranks' meeting folder is gone once the task recorded the cell.
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir / "r.slurm"))
        EXPECT_EQ(entry.path().filename().string().rfind("ranks-", 0), std::string::npos)
            << entry.path();
}

TEST(SlurmRanks, AKilledRankFailsItsCellNamingTheRank) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto result = run_trainscope(
        kRanks + "--steps 30 --ranks 2 --inject-fault crash@1:ranks=2 --out " + db.string());
    EXPECT_EQ(result.exit_code, 1) << result.output;
    const std::string error =
        query_text(db, "SELECT error FROM runs WHERE ranks = 2 AND status = 'failed'");
    EXPECT_NE(error.find("srun"), std::string::npos) << error;
    EXPECT_NE(error.find("task 1"), std::string::npos) << error;
}

}  // namespace
}  // namespace trainscope
