// `trainscope run --executor slurm` against the real single-node cluster that
// start-local-slurm runs (CTest fixture local_slurm). Tiny matrices: each cell trains a
// few steps on one thread, so the array's overhead, not training, sets the time.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <thread>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

// The fixture's cluster, unless SLURM_CONF already names another one to test against.
[[maybe_unused]] const bool kSlurmConfSet =
    setenv("SLURM_CONF", TRAINSCOPE_LOCAL_SLURM_CONF, 0) == 0;

std::string shell(const std::string& command) {
    std::string output;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr)
        return output;
    std::array<char, 4096> buffer{};
    while (fgets(buffer.data(), buffer.size(), pipe) != nullptr)
        output += buffer.data();
    pclose(pipe);
    return output;
}

std::vector<reports::RunRecord> runs_in(const std::filesystem::path& db_path) {
    const reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    return reports::load_runs(db, {}, reports::RunParts{true, true, false, false, false});
}

const reports::RunRecord& run_with_batch(const std::vector<reports::RunRecord>& runs, int batch) {
    for (const auto& r : runs) {
        if (r.axes.batch == batch)
            return r;
    }
    throw std::runtime_error("no run with batch " + std::to_string(batch));
}

std::string job_id_in(const std::string& output) {
    std::smatch m;
    if (std::regex_search(output, m, std::regex("submitted Slurm job array ([0-9]+)")))
        return m[1];
    return "";
}

// Polls `trainscope status` until `done(output)` or the deadline.
template <typename Predicate>
std::string wait_for_status(const std::filesystem::path& db, Predicate done, int seconds) {
    std::string output;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        output = run_trainscope("status " + db.string()).output;
        if (done(output))
            return output;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    return output;
}

const std::string kTiny = " --steps 3 --warmup 1 --threads 1 --executor slurm";

TEST(SlurmExecutor, SixCellMatrixIsOneArrayAndEveryCellIsRecordedOnce) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto run = run_trainscope("run --batch 4,6,8 --precision fp32,fp64" + kTiny +
                                    " --max-parallel 2 --out " + db.string());
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const std::string job = job_id_in(run.output);
    ASSERT_FALSE(job.empty()) << run.output;
    EXPECT_NE(run.output.find("done"), std::string::npos) << "a progress line: " << run.output;

    const auto runs = runs_in(db);
    ASSERT_EQ(runs.size(), 6u);
    std::set<std::string> keys;
    std::set<std::string> tasks;
    for (const auto& r : runs) {
        EXPECT_EQ(r.status, reports::RunStatus::Ok) << r.error;
        keys.insert(r.cell_key);
        EXPECT_EQ(r.environment.at("slurm_job_id"), job) << "one array for the whole matrix";
        tasks.insert(r.environment.at("slurm_array_task_id"));
        EXPECT_FALSE(r.environment.at("slurm_node").empty());
    }
    EXPECT_EQ(keys.size(), 6u) << "each cell once";
    EXPECT_EQ(tasks, (std::set<std::string>{"0", "1", "2", "3", "4", "5"}));
    {
        const reports::ResultsDatabase check(db, reports::OpenMode::ReadOnly);
        EXPECT_EQ(check.integrity_check(), "ok");
    }

    // Collecting again, twice, adds nothing.
    for (int i = 0; i < 2; ++i) {
        const auto collect = run_trainscope("collect " + db.string());
        EXPECT_EQ(collect.exit_code, 0) << collect.output;
        EXPECT_NE(collect.output.find("collected 0 runs"), std::string::npos) << collect.output;
    }
    EXPECT_EQ(runs_in(db).size(), 6u);
}

TEST(SlurmExecutor, CrashedCellIsRecordedFailedAndTheOthersFinish) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto run = run_trainscope("run --batch 4,8,12" + kTiny +
                                    " --inject-fault crash:batch=8 --out " + db.string());
    EXPECT_EQ(run.exit_code, 1) << run.output;
    const auto runs = runs_in(db);
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(run_with_batch(runs, 4).status, reports::RunStatus::Ok);
    EXPECT_EQ(run_with_batch(runs, 12).status, reports::RunStatus::Ok);
    const auto& crashed = run_with_batch(runs, 8);
    EXPECT_EQ(crashed.status, reports::RunStatus::Failed);
    EXPECT_NE(crashed.error.find("SIGSEGV"), std::string::npos) << crashed.error;

    // A failed cell is recorded once too: collecting again neither adds nor replaces it.
    const auto collect = run_trainscope("collect " + db.string());
    EXPECT_NE(collect.output.find("collected 0 runs"), std::string::npos) << collect.output;
    const auto after = runs_in(db);
    ASSERT_EQ(after.size(), 3u);
    EXPECT_EQ(run_with_batch(after, 8).id, crashed.id);
}

TEST(SlurmExecutor, CancelledTaskIsRecordedAndResumeCompletesIt) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const std::string args = "run --batch 4,8" + kTiny + " --out " + db.string();
    const auto submit = run_trainscope(args + " --no-wait --inject-fault hang:batch=8");
    ASSERT_EQ(submit.exit_code, 0) << submit.output;
    const std::string job = job_id_in(submit.output);
    ASSERT_FALSE(job.empty()) << submit.output;

    // status while the array runs: the hanging cell shows as running, with its node.
    const std::string running = wait_for_status(
        db,
        [](const std::string& s) {
            return std::regex_search(s, std::regex("batch=8 +running +[^ ]+ +[0-9]+:[0-9]+"));
        },
        60);
    ASSERT_TRUE(std::regex_search(running, std::regex("batch=8 +running +[^ ]+ +[0-9]+:[0-9]+")))
        << running;
    shell("scancel " + job + "_1");
    const std::string ended = wait_for_status(
        db,
        [](const std::string& s) { return s.find("0 pending, 0 running") != std::string::npos; },
        60);
    EXPECT_NE(ended.find("cancelled"), std::string::npos) << ended;

    const auto collect = run_trainscope("collect " + db.string());
    EXPECT_EQ(collect.exit_code, 0) << collect.output;
    auto runs = runs_in(db);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(run_with_batch(runs, 4).status, reports::RunStatus::Ok);
    EXPECT_EQ(run_with_batch(runs, 8).status, reports::RunStatus::Failed);
    EXPECT_NE(run_with_batch(runs, 8).error.find("cancelled"), std::string::npos)
        << run_with_batch(runs, 8).error;

    // --resume submits the cancelled cell only, and it completes.
    const auto resumed = run_trainscope(args + " --resume");
    ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
    EXPECT_NE(resumed.output.find("1 cell;"), std::string::npos) << resumed.output;
    runs = runs_in(db);
    ASSERT_EQ(runs.size(), 2u) << "the failure is replaced, not added to";
    for (const auto& r : runs)
        EXPECT_EQ(r.status, reports::RunStatus::Ok) << r.error;
    EXPECT_NE(run_with_batch(runs, 8).environment.at("slurm_job_id"), job);

    // Nothing missing: a second resume submits nothing and says so.
    const auto again = run_trainscope(args + " --resume");
    EXPECT_EQ(again.exit_code, 0) << again.output;
    EXPECT_NE(again.output.find("nothing to submit"), std::string::npos) << again.output;
    EXPECT_EQ(job_id_in(again.output), "");
    EXPECT_EQ(runs_in(db).size(), 2u);
}

TEST(SlurmExecutor, CtrlCWhileWaitingExits130AndTheJobRunsOn) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    const auto log = dir / "run.log";
    // Ctrl-C once the cell runs, as a terminal sends it: SIGINT to trainscope alone.
    const std::string out = shell(
        std::string(TRAINSCOPE_CLI) + " run --batch 4" + kTiny +
        " --inject-fault hang:batch=4 --out " + db.string() + " > " + log.string() +
        " 2>&1 & pid=$!; for i in $(seq 1 300); do grep -q '1 running' " + log.string() +
        " && break; sleep 0.2; done; kill -INT $pid; wait $pid; echo rc=$?; cat " + log.string());
    EXPECT_NE(out.find("rc=130"), std::string::npos) << out;
    EXPECT_NE(out.find("runs on in Slurm"), std::string::npos) << out;
    const std::string job = job_id_in(out);
    ASSERT_FALSE(job.empty()) << out;
    const auto status = run_trainscope("status " + db.string());
    EXPECT_TRUE(std::regex_search(status.output, std::regex("\\n\\S+ +running +")))
        << status.output;
    shell("scancel " + job);
}

TEST(SlurmExecutor, TaskPastItsTimeLimitIsRecordedAsTimeout) {
    testing::TempDir dir;
    const auto db = dir / "r.db";
    // Slurm counts time limits in whole minutes and checks them every few seconds:
    // about a minute and a half.
    const auto run = run_trainscope("run --batch 4" + kTiny +
                                    " --time-per-cell 00:01:00 --inject-fault hang:batch=4 --out " +
                                    db.string());
    EXPECT_EQ(run.exit_code, 1) << run.output;
    const auto runs = runs_in(db);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs.front().status, reports::RunStatus::Failed);
    EXPECT_NE(runs.front().error.find("timeout"), std::string::npos) << runs.front().error;
    EXPECT_NE(runs.front().error.find("TIMEOUT"), std::string::npos) << runs.front().error;
    EXPECT_EQ(runs.front().environment.at("slurm_state"), "TIMEOUT");
    // Slurm's word is kept beside the task, for when the controller has forgotten it.
    std::ifstream marker(dir / "r.slurm" / "matrix-1" / "sub-1" / "failed-0.json");
    const std::string text{std::istreambuf_iterator<char>(marker), {}};
    EXPECT_NE(text.find("TIMEOUT"), std::string::npos) << text;
}

}  // namespace
}  // namespace trainscope
