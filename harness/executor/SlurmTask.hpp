#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace trainscope::harness {

// Environment keys a run of a Slurm array task carries (docs/formats.md).
inline constexpr const char* kEnvSlurmJob = "slurm_job_id";
inline constexpr const char* kEnvSlurmTask = "slurm_array_task_id";
inline constexpr const char* kEnvSlurmNode = "slurm_node";

// One array task (hidden subcommand `__slurm-task SUBMISSION_DIR`, run by sbatch): runs
// the cell of $SLURM_ARRAY_TASK_ID in a child process exactly as the local executor
// does, and leaves its run in the submission folder under a temporary name renamed when
// whole. Slurm's SIGTERM (time limit, scancel) stops the cell and leaves no result: the
// collector then records Slurm's reason. Returns the exit code.
int run_slurm_task(const std::filesystem::path& submission_dir);

// $SLURM_ARRAY_TASK_ID as an index below `task_count`, or nullopt.
std::optional<int> parse_array_task_id(std::string_view text, std::size_t task_count);

// The oom_kill count of a cgroup v2 memory.events file's text; 0 when it has none.
long parse_oom_kill_count(const std::string& memory_events);

}  // namespace trainscope::harness
