#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>

#include "harness/isolation/CellJob.hpp"
#include "harness/isolation/RankLaunch.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::harness {

// Exit code of a child whose cell had bad user input (workloads::ConfigError); its
// message is in the result folder's error.txt.
inline constexpr int kChildConfigErrorExit = 3;

struct ChildOutcome {
    enum class End { Recorded, ConfigError, Interrupted } end = End::Recorded;
    reports::RunRecord record;  // End::Recorded: ok, failed (with cause) or skipped
    std::string config_error;   // End::ConfigError
    int term_signal = 0;        // the signal that killed the cell's process, if one did
};

// How a multi-rank cell's ranks start and where they leave their files: mpirun and a
// private folder under $TMPDIR (the local executor), or srun and a folder every node of
// the Slurm allocation sees (the Slurm executor's task; created fresh, removed after).
struct RankStart {
    RankLauncher launcher = RankLauncher::Mpirun;
    std::filesystem::path shared_dir;  // empty: a ScratchDir
};

// Runs the cell in a child process (this same binary, hidden subcommand `__cell`) so
// that a crash, an out-of-memory kill, a hang or a divergence ends only that cell. The
// child writes its run into a private results file that becomes visible by rename only
// when complete, so a killed child leaves nothing half-written. `interrupted` (Ctrl-C)
// is polled while waiting.
ChildOutcome run_cell_in_child(const CellJob& job, std::chrono::seconds timeout,
                               const std::atomic<bool>& interrupted,
                               const RankStart& rank_start = {});

// The child's side: runs the job and writes the result. Returns the exit code.
int run_child_cell(const std::filesystem::path& job_file, const std::filesystem::path& result_dir);

}  // namespace trainscope::harness
