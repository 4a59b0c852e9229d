#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

std::vector<reports::RunRecord> runs_in(const std::filesystem::path& db_path) {
    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    return reports::load_runs(db, {}, {});
}

const reports::RunRecord& run_with_batch(const std::vector<reports::RunRecord>& runs, int batch) {
    for (const auto& r : runs) {
        if (r.axes.batch == batch)
            return r;
    }
    throw std::runtime_error("no run with batch " + std::to_string(batch));
}

// Each fault hits the batch=16 cell only; the matrix records it and finishes the others.
TEST(MatrixIsolation, CrashIsRecordedAndTheMatrixGoesOn) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto r = run_trainscope(
        "run --batch 8,16,24 --steps 6 --warmup 1 --inject-fault crash:batch=16 -q --out " +
        db.string());
    EXPECT_EQ(r.exit_code, 1) << "a failed cell makes the exit code 1\n" << r.output;
    const auto runs = runs_in(db);
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(run_with_batch(runs, 8).status, reports::RunStatus::Ok);
    EXPECT_EQ(run_with_batch(runs, 24).status, reports::RunStatus::Ok);
    const auto& crashed = run_with_batch(runs, 16);
    EXPECT_EQ(crashed.status, reports::RunStatus::Failed);
    EXPECT_NE(crashed.error.find("crashed"), std::string::npos) << crashed.error;
    EXPECT_NE(crashed.error.find("SIGSEGV"), std::string::npos) << crashed.error;
}

TEST(MatrixIsolation, TimeoutIsRecordedAndTheMatrixGoesOn) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto r = run_trainscope(
        "run --batch 8,16 --steps 6 --warmup 1 --timeout 3 --inject-fault hang:batch=16 -q "
        "--out " +
        db.string());
    EXPECT_EQ(r.exit_code, 1) << r.output;
    const auto runs = runs_in(db);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(run_with_batch(runs, 8).status, reports::RunStatus::Ok);
    EXPECT_EQ(run_with_batch(runs, 16).status, reports::RunStatus::Failed);
    EXPECT_NE(run_with_batch(runs, 16).error.find("timeout"), std::string::npos)
        << run_with_batch(runs, 16).error;
}

TEST(MatrixIsolation, DivergenceIsRecordedAndTheMatrixGoesOn) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto r = run_trainscope(
        "run --batch 8,16 --steps 6 --warmup 1 --inject-fault nan:batch=16 -q --out " +
        db.string());
    EXPECT_EQ(r.exit_code, 1) << r.output;
    const auto runs = runs_in(db);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(run_with_batch(runs, 8).status, reports::RunStatus::Ok);
    EXPECT_NE(run_with_batch(runs, 16).error.find("diverged"), std::string::npos)
        << run_with_batch(runs, 16).error;
}

TEST(MatrixResume, SurvivesSigkillOfTheParentAndRunsEveryCellExactlyOnce) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const std::string args = "run --batch 8,16,24,32 --steps 40 --warmup 1 -q --out " + db.string();
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", (std::string("exec ") + TRAINSCOPE_CLI + " " + args).c_str(),
              nullptr);
        _exit(127);
    }
    // Kill the parent as soon as at least one cell is stored and before all are.
    bool killed_midway = false;
    for (int i = 0; i < 1200 && !killed_midway; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
        if (!std::filesystem::exists(db))
            continue;
        try {
            const auto runs = runs_in(db);
            if (!runs.empty() && runs.size() < 4) {
                kill(pid, SIGKILL);
                killed_midway = true;
            }
        } catch (const std::exception&) {
            // the file may be mid-creation; try again
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(killed_midway) << "the matrix finished before it could be killed";
    ASSERT_TRUE(WIFSIGNALED(status));
    const auto before = runs_in(db).size();
    EXPECT_GE(before, 1u);
    EXPECT_LT(before, 4u);

    const auto resumed = run_trainscope(args + " --resume --json");
    ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
    const auto runs = runs_in(db);
    ASSERT_EQ(runs.size(), 4u);
    std::set<std::int64_t> batches;
    std::set<std::int64_t> matrices;
    for (const auto& r : runs) {
        EXPECT_EQ(r.status, reports::RunStatus::Ok) << r.error;
        batches.insert(*r.axes.batch);
        matrices.insert(*r.matrix_id);
    }
    EXPECT_EQ(batches, (std::set<std::int64_t>{8, 16, 24, 32}));
    EXPECT_EQ(matrices.size(), 1u) << "resume continues the same matrix";
    reports::ResultsDatabase check(db, reports::OpenMode::ReadOnly);
    EXPECT_EQ(check.integrity_check(), "ok");

    // Nothing left to do: a second resume runs no cell.
    const auto again = run_trainscope(args + " --resume");
    EXPECT_EQ(again.exit_code, 0) << again.output;
    EXPECT_EQ(runs_in(db).size(), 4u);
}

TEST(MatrixResume, ReplacesFailedCellsInsteadOfAddingRows) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const std::string args = "run --batch 8,16 --steps 6 --warmup 1 -q --out " + db.string();
    EXPECT_EQ(run_trainscope(args + " --inject-fault crash:batch=16").exit_code, 1);
    ASSERT_EQ(runs_in(db).size(), 2u);
    const auto r = run_trainscope(args + " --resume");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const auto runs = runs_in(db);
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& run : runs)
        EXPECT_EQ(run.status, reports::RunStatus::Ok) << run.error;
}

TEST(MatrixFile, ExamplesQuickRunsOnTheCpu) {
    testing::TempDir dir;
    const auto db = dir / "quick.db";
    const auto r =
        run_trainscope("run " + std::string(TRAINSCOPE_SOURCE_DIR) +
                       "/examples/quick.toml --backend cpu -q --json --out " + db.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto json = nlohmann::json::parse(r.output);
    ASSERT_EQ(json.at("runs").size(), 4u);
    for (const auto& run : json.at("runs")) {
        EXPECT_EQ(run.at("status"), "ok") << run.dump();
        EXPECT_GT(run.at("metrics").at("images_per_s").get<double>(), 0.0);
    }
    EXPECT_EQ(runs_in(db).size(), 4u);
}

TEST(MatrixFile, FlagsOverrideAxesAndExcludesDropCells) {
    testing::TempDir dir;
    std::ofstream(dir / "m.toml")
        << "name = \"m\"\n[axes]\nprecision = [\"fp32\", \"fp64\"]\nbatch = [8, 16, 32]\n"
           "[[exclude]]\nprecision = \"fp64\"\nbatch = 32\n[run]\nsteps = 5\n";
    auto r = run_trainscope("run " + (dir / "m.toml").string() + " --dry-run");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("5 cells"), std::string::npos) << r.output;
    r = run_trainscope("run " + (dir / "m.toml").string() + " --batch 64 --dry-run");
    EXPECT_NE(r.output.find("2 cells"), std::string::npos) << r.output;
    std::ofstream(dir / "bad.toml") << "[axes]\nprecision = [\"fp32\", \"fp7\"]\n";
    r = run_trainscope("run " + (dir / "bad.toml").string() + " --dry-run");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("fp7"), std::string::npos) << r.output;
    std::ofstream(dir / "typo.toml") << "[axes]\nprecission = \"fp32\"\n";
    r = run_trainscope("run " + (dir / "typo.toml").string() + " --dry-run");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("typo.toml:2"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("precission"), std::string::npos) << r.output;
}

TEST(MatrixStopping, NoiseTargetStopsTheCellAtMinSteps) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    // A loose target (50 % relative standard error) is met as soon as min-steps is reached.
    const auto r =
        run_trainscope("run --rse 0.5 --min-steps 7 --warmup 2 -q --json --out " + db.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto json = nlohmann::json::parse(r.output);
    const auto& metrics = json.at("runs").at(0).at("metrics");
    EXPECT_EQ(metrics.at("step_count").get<double>(), 7.0);
    EXPECT_EQ(metrics.at("noise_target_met").get<double>(), 1.0);
}

TEST(MatrixStopping, TimeCapEndsAnUnreachableTarget) {
    testing::TempDir dir;
    const auto r =
        run_trainscope("run --rse 0.0000001 --min-steps 5 --max-time 1 -q --json --out " +
                       (dir / "r.db").string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto json = nlohmann::json::parse(r.output);
    const auto& metrics = json.at("runs").at(0).at("metrics");
    EXPECT_EQ(metrics.at("noise_target_met").get<double>(), 0.0);
    EXPECT_GE(metrics.at("train_time_s").get<double>(), 1.0);
}

}  // namespace
}  // namespace trainscope

namespace trainscope {
namespace {

TEST(MatrixInterrupt, CtrlCStopsCleanlyAndResumeFinishes) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const std::string args = "run --batch 8,16,24,32 --steps 40 --warmup 1 -q --out " + db.string();
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", (std::string("exec ") + TRAINSCOPE_CLI + " " + args).c_str(), nullptr);
        _exit(127);
    }
    bool interrupted = false;
    for (int i = 0; i < 1200 && !interrupted; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
        if (!std::filesystem::exists(db)) continue;
        try {
            const auto runs = runs_in(db);
            if (!runs.empty() && runs.size() < 4) {
                kill(pid, SIGINT);  // what Ctrl-C sends to the parent
                interrupted = true;
            }
        } catch (const std::exception&) {
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(interrupted);
    ASSERT_TRUE(WIFEXITED(status)) << "the parent must exit by itself, not die of the signal";
    EXPECT_EQ(WEXITSTATUS(status), 130);
    const auto recorded = runs_in(db);
    EXPECT_LT(recorded.size(), 4u);
    for (const auto& r : recorded) EXPECT_EQ(r.status, reports::RunStatus::Ok) << "an interrupted cell is not recorded as failed";
    const auto resumed = run_trainscope(args + " --resume");
    EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
    EXPECT_EQ(runs_in(db).size(), 4u);
}

}  // namespace
}  // namespace trainscope
