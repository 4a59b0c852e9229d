// Collecting a Slurm-run matrix's results folder into the results database, without
// Slurm: the result files alone.
#include "harness/executor/Collector.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "TempDir.hpp"
#include "harness/executor/CellStates.hpp"
#include "harness/executor/ResultsFolder.hpp"
#include "harness/executor/SlurmTask.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"

namespace trainscope::harness {
namespace {

// A results database with one Slurm-run matrix whose `cells` tasks all wrote a result.
std::int64_t matrix_with_results(const std::filesystem::path& out, int cells) {
    std::int64_t id = 0;
    {
        const reports::ResultsDatabase db(out, reports::OpenMode::CreateOrOpen);
        id = reports::RunWriter(db).create_matrix({"m", "{}", "test", "test"});
    }
    Submission s = new_submission(matrix_folder(out, id));
    s.job_id = "77";
    for (int i = 0; i < cells; ++i) {
        s.cell_keys.push_back("cell=" + std::to_string(i));
        reports::RunRecord run;
        run.cell_key = s.cell_keys.back();
        run.environment[kEnvSlurmJob] = "77";
        run.environment[kEnvSlurmTask] = std::to_string(i);
        const reports::ResultsDatabase file(s.result_file(i), reports::OpenMode::CreateOrOpen);
        reports::RunWriter(file).write(run);
    }
    write_submission(s);
    return id;
}

std::size_t runs_of(const std::filesystem::path& out, std::int64_t matrix_id) {
    const reports::ResultsDatabase db(out, reports::OpenMode::ReadOnly);
    return reports::load_runs(db, {matrix_id, {}}, reports::RunParts{}).size();
}

TEST(CollectorTest, CollectingTwiceAddsNothing) {
    testing::TempDir dir;
    const auto out = dir / "out.db";
    const auto id = matrix_with_results(out, 3);
    EXPECT_EQ(collect_results(out, nullptr).added.size(), 3U);
    const auto again = collect_results(out, nullptr);
    EXPECT_TRUE(again.added.empty());
    EXPECT_EQ(again.already, 3U);
    EXPECT_EQ(runs_of(out, id), 3U);
}

TEST(CollectorTest, CollectsAtOnceRecordEachCellOnce) {
    // Two users (or a --wait and a cron job) collecting the same folder at the same time.
    for (int round = 0; round < 10; ++round) {
        testing::TempDir dir;
        const auto out = dir / "out.db";
        const auto id = matrix_with_results(out, 4);
        std::atomic<std::size_t> added{0};
        std::atomic<bool> go{false};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&] {
                while (!go) {
                }
                added += collect_results(out, nullptr).added.size();
            });
        }
        go = true;
        for (auto& t : threads)
            t.join();
        EXPECT_EQ(added.load(), 4U) << "round " << round;
        EXPECT_EQ(runs_of(out, id), 4U) << "round " << round;
    }
}

TEST(CollectorTest, AFailureMarkerKeepsSlurmsReasonAfterSlurmForgotTheTask) {
    testing::TempDir dir;
    Submission s = new_submission(dir / "matrix-1");
    s.job_id = "12";
    s.cell_keys = {"cell=0", "cell=1"};
    write_submission(s);
    EXPECT_FALSE(read_failure_marker(s, 1));
    EXPECT_TRUE(write_failure_marker(
        s, SlurmTask{"12", 1, SlurmState::Timeout, "TIMEOUT", "n1", "1:00", ""}));
    // Written once: a later look does not change what was seen first.
    write_failure_marker(s, SlurmTask{"12", 1, SlurmState::Failed, "FAILED", "n2", "1:05", ""});
    const auto attempts = latest_attempts(read_submissions(dir / "matrix-1"), nullptr);
    const auto& timed_out = attempts.at("cell=1");
    ASSERT_TRUE(timed_out.slurm);
    EXPECT_EQ(timed_out.slurm->state, SlurmState::Timeout);
    EXPECT_EQ(timed_out.slurm->node, "n1");
    const auto status = cell_status("cell=1", nullptr, &timed_out);
    EXPECT_EQ(status.state, CellState::Failed);
    EXPECT_NE(status.detail.find("TIMEOUT"), std::string::npos);
    EXPECT_FALSE(attempts.at("cell=0").slurm) << "no marker: nothing known";
}

}  // namespace
}  // namespace trainscope::harness
