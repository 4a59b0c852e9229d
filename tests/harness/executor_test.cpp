// The Slurm executor's pure parts: Slurm's text parsed into types, the sbatch command
// line, executor settings, and how a cell's state follows from its runs and attempts.
#include <gtest/gtest.h>

#include <algorithm>

#include "harness/cli/UsageError.hpp"
#include "harness/executor/CellStates.hpp"
#include "harness/executor/ExecutorSettings.hpp"
#include "harness/executor/SlurmClient.hpp"
#include "harness/executor/SlurmTask.hpp"

namespace trainscope::harness {
namespace {

TEST(SlurmParsing, SqueueLinesBecomeTasksAndUnsplitRangesAreLeftOut) {
    const auto tasks = parse_squeue(
        "12_2|PENDING||0:00|JobArrayTaskLimit\n"
        "12_[3-5%2]|PENDING||0:00|JobArrayTaskLimit\n"
        "12_0|RUNNING|node07|1:02:03|None\n"
        "12_1|TIMEOUT|node07|1:00|TimeLimit\n"
        "garbage\n");
    ASSERT_EQ(tasks.size(), 3u);
    EXPECT_EQ(tasks[0].job_id, "12");
    EXPECT_EQ(tasks[0].index, 2);
    EXPECT_EQ(tasks[0].state, SlurmState::Pending);
    EXPECT_EQ(tasks[0].reason, "JobArrayTaskLimit");
    EXPECT_EQ(tasks[1].state, SlurmState::Running);
    EXPECT_EQ(tasks[1].node, "node07");
    EXPECT_EQ(tasks[1].elapsed, "1:02:03");
    EXPECT_EQ(tasks[1].reason, "") << "squeue's None is no reason";
    EXPECT_EQ(tasks[2].state, SlurmState::Timeout);
}

TEST(SlurmParsing, SacctStatesKeepTheirFirstWordAndStepsAreLeftOut) {
    const auto tasks = parse_sacct(
        "40_3|CANCELLED by 1000|gpu2|00:00:07\n"
        "40_3.batch|CANCELLED|gpu2|00:00:07\n"
        "40_4|OUT_OF_MEMORY|gpu2|00:10:00\n"
        "40_5|NODE_FAIL|gpu3|00:01:00\n");
    ASSERT_EQ(tasks.size(), 3u);
    EXPECT_EQ(tasks[0].state, SlurmState::Cancelled);
    EXPECT_EQ(tasks[0].state_text, "CANCELLED by 1000");
    EXPECT_EQ(tasks[1].state, SlurmState::OutOfMemory);
    EXPECT_EQ(tasks[2].state, SlurmState::NodeFail);
    EXPECT_TRUE(has_ended(SlurmState::NodeFail));
    EXPECT_FALSE(has_ended(parse_slurm_state("COMPLETING")));
}

TEST(SlurmParsing, FailureTextsNameSlurmsStateAndTheFix) {
    SlurmTask task{"7", 1, SlurmState::Timeout, "TIMEOUT", "n1", "1:05", ""};
    const auto timeout = slurm_failure_text(task, "00:01:00");
    EXPECT_NE(timeout.find("TIMEOUT"), std::string::npos);
    EXPECT_NE(timeout.find("00:01:00"), std::string::npos);
    EXPECT_NE(timeout.find("--time-per-cell"), std::string::npos);
    task.state = SlurmState::OutOfMemory;
    EXPECT_NE(slurm_failure_text(task, "").find("--mem"), std::string::npos);
    task.state = SlurmState::NodeFail;
    EXPECT_NE(slurm_failure_text(task, "").find("NODE_FAIL"), std::string::npos);
}

TEST(SlurmCommandLine, OneArrayWithThrottleResourcesAndExtraArguments) {
    ArraySubmission s;
    s.task_count = 6;
    s.job_name = "trainscope-quick";
    s.log_pattern = "/shared/r.slurm/matrix-1/sub-1/log-%A_%a.out";
    s.cpus_per_task = 4;
    s.command = "exec '/opt/trainscope' __slurm-task '/shared/x'";
    s.settings.kind = ExecutorSettings::Kind::Slurm;
    s.settings.partition = "gpu";
    s.settings.account = "proj";
    s.settings.time_per_cell = "00:20:00";
    s.settings.gpus_per_cell = 1;
    s.settings.max_parallel = 2;
    s.settings.sbatch_args = {"--mem=8G"};
    const auto args = sbatch_arguments(s);
    const auto has = [&args](const std::string& a) {
        return std::find(args.begin(), args.end(), a) != args.end();
    };
    EXPECT_EQ(args.front(), "sbatch");
    EXPECT_TRUE(has("--array=0-5%2"));
    EXPECT_TRUE(has("--partition=gpu"));
    EXPECT_TRUE(has("--account=proj"));
    EXPECT_TRUE(has("--time=00:20:00"));
    EXPECT_TRUE(has("--gres=gpu:1"));
    EXPECT_TRUE(has("--cpus-per-task=4"));
    EXPECT_TRUE(has("--mem=8G"));
    EXPECT_TRUE(has("--ntasks=1"));
    EXPECT_EQ(args.back(), "--wrap=" + s.command);
    s.tasks_per_cell = 4;  // a matrix with a 4-rank cell: every task holds 4 for srun
    const auto ranked = sbatch_arguments(s);
    EXPECT_TRUE(std::find(ranked.begin(), ranked.end(), "--ntasks=4") != ranked.end());
    s.settings.max_parallel = 0;
    EXPECT_TRUE(std::find(sbatch_arguments(s).begin(), sbatch_arguments(s).end(), "--array=0-5") !=
                sbatch_arguments(s).end());
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

TEST(ExecutorSettingsTest, FlagsOverTheFileAndBadValuesAreUsageErrors) {
    const std::map<std::string, std::string> file{{"kind", "slurm"},
                                                  {"partition", "cpu"},
                                                  {"max_parallel", "4"},
                                                  {"sbatch_args", "--mem=1G\n--qos=low"},
                                                  {"wait", "off"}};
    ExecutorFlags flags;
    flags.partition = "gpu";
    flags.sbatch_args = {"--exclusive"};
    const auto s = resolve_executor_settings(file, flags);
    EXPECT_EQ(s.kind, ExecutorSettings::Kind::Slurm);
    EXPECT_EQ(s.partition, "gpu");
    EXPECT_EQ(s.max_parallel, 4);
    EXPECT_EQ(s.sbatch_args, (std::vector<std::string>{"--mem=1G", "--qos=low", "--exclusive"}));
    EXPECT_FALSE(s.wait);

    ExecutorFlags bad_time;
    bad_time.kind = "slurm";
    bad_time.time_per_cell = "20 minutes";
    EXPECT_THROW(resolve_executor_settings({}, bad_time), UsageError);
    ExecutorFlags local_with_partition;
    local_with_partition.partition = "gpu";
    EXPECT_THROW(resolve_executor_settings({}, local_with_partition), UsageError);
    EXPECT_THROW(resolve_executor_settings({{"kind", "pbs"}}, {}), UsageError);
    EXPECT_EQ(resolve_executor_settings({}, {}).kind, ExecutorSettings::Kind::Local);
}

TEST(ExecutorSettingsTest, SlurmDurationsInSeconds) {
    EXPECT_EQ(parse_slurm_duration("00:20:00"), 1200);
    EXPECT_EQ(parse_slurm_duration("5:30"), 330);
    EXPECT_EQ(parse_slurm_duration("20"), 1200) << "a bare number is minutes";
    EXPECT_EQ(parse_slurm_duration("1-02:00:00"), 93600);
    EXPECT_EQ(parse_slurm_duration("1-2"), 93600);
    EXPECT_EQ(parse_slurm_duration("0-01"), 3600) << "D-HH: with days, the next field is hours";
    EXPECT_EQ(parse_slurm_duration("0-01:30"), 5400) << "D-HH:MM";
    EXPECT_EQ(parse_slurm_duration("0-00:00:45"), 45) << "D-HH:MM:SS";
    EXPECT_EQ(parse_slurm_duration("2-0"), 172800);
    EXPECT_FALSE(parse_slurm_duration("-1"));
    EXPECT_FALSE(parse_slurm_duration("ten"));
    EXPECT_FALSE(parse_slurm_duration("1:2:3:4"));
    EXPECT_FALSE(parse_slurm_duration(""));
}

TaskAttempt attempt_with(std::optional<reports::RunStatus> result, std::optional<SlurmTask> slurm) {
    TaskAttempt a;
    a.submission.job_id = "9";
    a.submission.time_per_cell = "00:01:00";
    a.result_status = result;
    a.slurm = std::move(slurm);
    return a;
}

TEST(SlurmTaskTest, ArrayTaskIdIsAWholeNumberBelowTheCellCount) {
    EXPECT_EQ(parse_array_task_id("0", 3), 0);
    EXPECT_EQ(parse_array_task_id("2", 3), 2);
    EXPECT_FALSE(parse_array_task_id("3", 3)) << "one past the last cell";
    EXPECT_FALSE(parse_array_task_id("-1", 3));
    EXPECT_FALSE(parse_array_task_id("1x", 3));
    EXPECT_FALSE(parse_array_task_id("", 3));
    EXPECT_FALSE(parse_array_task_id("99999999999", 3));
}

TEST(SlurmTaskTest, OomKillsAreReadFromMemoryEvents) {
    EXPECT_EQ(parse_oom_kill_count("low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n"),
              1);
    EXPECT_EQ(parse_oom_kill_count("low 0\nhigh 0\n"), 0);
    EXPECT_EQ(parse_oom_kill_count(""), 0);
}

TEST(CellStateTest, OkRunWinsThenTheNewestAttemptThenARecordedFailure) {
    const std::vector<RecordedRun> ok{{1, reports::RunStatus::Ok, "", "9_0"}};
    const std::vector<RecordedRun> failed{{2, reports::RunStatus::Failed, "crashed", "8_0"}};
    const auto pending = attempt_with(
        std::nullopt, SlurmTask{"9", 0, SlurmState::Pending, "PENDING", "", "0:00", "Resources"});
    const auto running = attempt_with(
        std::nullopt, SlurmTask{"9", 0, SlurmState::Running, "RUNNING", "n3", "0:42", ""});
    const auto timed_out = attempt_with(
        std::nullopt, SlurmTask{"9", 0, SlurmState::Timeout, "TIMEOUT", "n3", "1:00", ""});
    const auto wrote_ok = attempt_with(reports::RunStatus::Ok, std::nullopt);
    const auto forgotten = attempt_with(std::nullopt, std::nullopt);

    EXPECT_EQ(cell_status("k", &ok, &pending).state, CellState::Done);
    EXPECT_EQ(cell_status("k", &failed, &pending).state, CellState::Pending);
    EXPECT_EQ(cell_status("k", &failed, &pending).detail, "Resources");
    const auto r = cell_status("k", nullptr, &running);
    EXPECT_EQ(r.state, CellState::Running);
    EXPECT_EQ(r.node, "n3");
    EXPECT_EQ(r.elapsed, "0:42");
    const auto t = cell_status("k", nullptr, &timed_out);
    EXPECT_EQ(t.state, CellState::Failed);
    EXPECT_NE(t.detail.find("TIMEOUT"), std::string::npos);
    EXPECT_EQ(cell_status("k", &failed, &wrote_ok).state, CellState::Done);
    EXPECT_EQ(cell_status("k", &failed, &forgotten).state, CellState::Failed);
    EXPECT_EQ(cell_status("k", nullptr, &forgotten).state, CellState::Missing);
    EXPECT_EQ(cell_status("k", nullptr, nullptr).state, CellState::Missing);
}

}  // namespace
}  // namespace trainscope::harness
