#include "harness/executor/SlurmTask.hpp"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "harness/executor/ResultsFolder.hpp"
#include "harness/isolation/ChildCell.hpp"
#include "harness/isolation/PublishFile.hpp"
#include "harness/runner/CellConfig.hpp"
#include "harness/runner/InterruptGuard.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"

namespace trainscope::harness {

namespace {

std::string env_or_empty(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
}

std::string read_text(const std::filesystem::path& file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Out-of-memory kills counted in this process's cgroup (cgroup v2: Slurm's task/cgroup
// puts the task, and so the cell's child process, in one). 0 without cgroup v2.
long cgroup_oom_kills() {
    std::istringstream lines(read_text("/proc/self/cgroup"));
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("0::", 0) == 0) {
            return parse_oom_kill_count(read_text(
                std::filesystem::path("/sys/fs/cgroup" + line.substr(3)) / "memory.events"));
        }
    }
    return 0;
}

}  // namespace

std::optional<int> parse_array_task_id(std::string_view text, std::size_t task_count) {
    int index = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty() || index < 0 ||
        static_cast<std::size_t>(index) >= task_count)
        return std::nullopt;
    return index;
}

long parse_oom_kill_count(const std::string& memory_events) {
    std::istringstream lines(memory_events);
    std::string key;
    long count = 0;
    while (lines >> key >> count) {
        if (key == "oom_kill")
            return count;
    }
    return 0;
}

int run_slurm_task(const std::filesystem::path& submission_dir) {
    const std::string task_text = env_or_empty("SLURM_ARRAY_TASK_ID");
    const Submission submission = read_submission(submission_dir);
    const auto parsed = parse_array_task_id(task_text, submission.cell_keys.size());
    if (!parsed) {
        std::fprintf(stderr,
                     "trainscope: __slurm-task runs inside a Slurm array task of %s: "
                     "SLURM_ARRAY_TASK_ID is '%s', not a task id from 0 to %zu\n",
                     submission_dir.c_str(), task_text.c_str(), submission.cell_keys.size() - 1);
        return 2;
    }
    const int index = *parsed;
    const CellJob job = read_cell_job(submission.task_file(index));

    InterruptGuard interrupt;  // Slurm's SIGTERM: stop the cell, write nothing
    const long oom_before = cgroup_oom_kills();
    // A multi-rank cell's ranks are one srun step inside this task's allocation (sbatch
    // asked for --ntasks of the largest cell); they may land on other nodes, so they meet
    // in a folder beside the results, on the shared file system.
    const RankStart ranks{RankLauncher::Srun, submission.dir / fmt::format("ranks-{}", index)};
    ChildOutcome outcome =
        run_cell_in_child(job, std::chrono::seconds(submission.timeout_s), interrupt.flag(), ranks);
    // Stopped by Slurm (time limit, scancel): its reason is the one to record, so this
    // task leaves no result even when the cell got to write one.
    if (outcome.end == ChildOutcome::End::Interrupted || interrupt.interrupted()) {
        std::fprintf(stderr, "trainscope: the cell was stopped by a signal; no result\n");
        return 143;
    }
    reports::RunRecord record = std::move(outcome.record);
    if (outcome.end == ChildOutcome::End::ConfigError) {
        record.status = reports::RunStatus::Failed;
        record.error = outcome.config_error;
    }
    // SIGKILL is also what the kernel's OOM killer sends; the task's cgroup counts its
    // kills, so say which it was where the count shows it (no count: the crash as is).
    if (outcome.term_signal == SIGKILL) {
        if (const long kills = cgroup_oom_kills() - oom_before; kills > 0) {
            record.error = fmt::format(
                "out of memory: the cell was killed by SIGKILL and the task's cgroup counted {} "
                "out-of-memory kill{} while it ran (memory.events oom_kill) — ask for more "
                "with --sbatch-arg=--mem=...",
                kills, kills == 1 ? "" : "s");
            record.environment["cgroup_oom_kills"] = std::to_string(kills);
        }
    }
    record.cell_key = job.cell.key();
    record.axes = make_run_axes(job.cell, job.length);
    const std::string array_job = env_or_empty("SLURM_ARRAY_JOB_ID");
    record.environment[kEnvSlurmJob] = array_job.empty() ? env_or_empty("SLURM_JOB_ID") : array_job;
    record.environment[kEnvSlurmTask] = task_text;
    record.environment[kEnvSlurmNode] = env_or_empty("SLURMD_NODENAME");
    record.environment["slurm_task_job_id"] = env_or_empty("SLURM_JOB_ID");

    // Written whole on the node's own disk, then copied, flushed and renamed into the
    // shared folder: readers there see no file or the whole one, never a journal.
    const auto local = local_staging(submission.result_file(index));
    {
        reports::ResultsDatabase db(local, reports::OpenMode::CreateOrOpen);
        reports::RunWriter(db).write(record);
        db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        db.exec("PRAGMA journal_mode = DELETE");
    }
    publish_file(local, submission.result_file(index));
    std::fprintf(stderr, "trainscope: cell %s: %s%s%s\n", record.cell_key.c_str(),
                 std::string(reports::to_string(record.status)).c_str(),
                 record.error.empty() ? "" : ": ", record.error.c_str());
    return 0;
}

}  // namespace trainscope::harness
