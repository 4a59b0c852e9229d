#include "harness/executor/SlurmTask.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "harness/executor/ResultsFolder.hpp"
#include "harness/isolation/ChildCell.hpp"
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

}  // namespace

int run_slurm_task(const std::filesystem::path& submission_dir) {
    const std::string task_text = env_or_empty("SLURM_ARRAY_TASK_ID");
    if (task_text.empty()) {
        std::fprintf(stderr,
                     "trainscope: __slurm-task runs inside a Slurm array task "
                     "(SLURM_ARRAY_TASK_ID is not set)\n");
        return 2;
    }
    const int index = std::atoi(task_text.c_str());
    const Submission submission = read_submission(submission_dir);
    const CellJob job = read_cell_job(submission.task_file(index));

    InterruptGuard interrupt;  // Slurm's SIGTERM: stop the cell, write nothing
    ChildOutcome outcome =
        run_cell_in_child(job, std::chrono::seconds(submission.timeout_s), interrupt.flag());
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
    record.cell_key = job.cell.key();
    record.axes = make_run_axes(job.cell, job.length);
    const std::string array_job = env_or_empty("SLURM_ARRAY_JOB_ID");
    record.environment[kEnvSlurmJob] = array_job.empty() ? env_or_empty("SLURM_JOB_ID") : array_job;
    record.environment[kEnvSlurmTask] = task_text;
    record.environment[kEnvSlurmNode] = env_or_empty("SLURMD_NODENAME");
    record.environment["slurm_task_job_id"] = env_or_empty("SLURM_JOB_ID");

    const auto final_file = submission.result_file(index);
    const auto temp = std::filesystem::path(final_file.string() + ".tmp");
    std::filesystem::remove(temp);
    {
        reports::ResultsDatabase db(temp, reports::OpenMode::CreateOrOpen);
        reports::RunWriter(db).write(record);
        // One self-contained file: no -wal beside it on the shared file system.
        db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        db.exec("PRAGMA journal_mode = DELETE");
    }
    std::filesystem::rename(temp, final_file);
    std::fprintf(stderr, "trainscope: cell %s: %s%s%s\n", record.cell_key.c_str(),
                 std::string(reports::to_string(record.status)).c_str(),
                 record.error.empty() ? "" : ": ", record.error.c_str());
    return 0;
}

}  // namespace trainscope::harness
