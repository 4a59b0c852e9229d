#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "harness/executor/ExecutorSettings.hpp"

namespace trainscope::harness {

// A job array task's state in Slurm's own words (squeue %T, sacct State), parsed once here
// so nothing else reads Slurm's text.
enum class SlurmState {
    Pending,
    Running,  // also CONFIGURING, COMPLETING, SUSPENDED: not ended yet
    Completed,
    Failed,
    Timeout,
    OutOfMemory,
    Cancelled,
    NodeFail,
    Other,  // an ended state this code has no name for (PREEMPTED, BOOT_FAIL, DEADLINE, ...)
};

SlurmState parse_slurm_state(std::string_view text);
[[nodiscard]] inline bool has_ended(SlurmState s) {
    return s != SlurmState::Pending && s != SlurmState::Running;
}

struct SlurmTask {
    std::string job_id;  // the array's job id
    int index = -1;      // the array task id
    SlurmState state = SlurmState::Other;
    std::string state_text;  // as Slurm wrote it: "TIMEOUT", "CANCELLED by 0"
    std::string node;
    std::string elapsed;  // as Slurm writes it: "1:02", "1-02:03:04"
    std::string reason;   // squeue's reason ("Resources", "JobArrayTaskLimit"); may be empty
};

// The failure a task that ended without a result is recorded with, in words.
std::string slurm_failure_text(const SlurmTask& task, const std::string& time_per_cell);

// `squeue -h -r --states=all -o %i|%T|%N|%M|%r` and
// `sacct -n -P -X -o JobID,State,NodeList,Elapsed` lines; lines of other jobs, of array
// ranges not yet split into tasks ("12_[3-5]") and of job steps are left out.
std::vector<SlurmTask> parse_squeue(const std::string& text);
std::vector<SlurmTask> parse_sacct(const std::string& text);

struct ArraySubmission {
    int task_count = 0;
    std::string job_name;
    std::filesystem::path log_pattern;  // --output, with %A and %a
    int cpus_per_task = 0;              // 0: Slurm's default
    // --ntasks of every array task: the largest ranks of the submitted cells, whose srun
    // step starts the ranks (an array asks alike for all its tasks).
    int tasks_per_cell = 1;
    std::string command;  // what each task runs (bash -c)
    ExecutorSettings settings;
};

// Single-quoted for bash: the task command sbatch --wrap runs.
std::string shell_quote(const std::string& text);

// sbatch's argument list for one job array of the submission's tasks.
std::vector<std::string> sbatch_arguments(const ArraySubmission& submission);

// The Slurm client commands this machine has.
class SlurmClient {
  public:
    // Throws UsageError naming the missing command ("sbatch not found on PATH ...").
    SlurmClient();

    // Submits the array; returns its job id. Throws std::runtime_error with sbatch's
    // message when Slurm refuses it.
    std::string submit(const ArraySubmission& submission) const;
    // The tasks of the array (0 .. task_count-1) Slurm still knows: squeue while the
    // controller remembers each (MinJobAge after it ends), sacct where accounting is
    // kept for every task squeue did not report.
    std::vector<SlurmTask> tasks(const std::string& job_id, int task_count) const;
};

}  // namespace trainscope::harness
