#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace trainscope::harness {

// Where a matrix's cells run: here, one child process after another, or as one Slurm job
// array. From `--executor` and its flags, over the matrix file's [executor] table.
struct ExecutorSettings {
    enum class Kind { Local, Slurm } kind = Kind::Local;
    std::string partition;
    std::string account;
    std::string time_per_cell;  // as sbatch --time takes it; empty: the partition's default
    int gpus_per_cell = 0;
    int max_parallel = 0;  // 0: as many tasks at once as Slurm grants
    std::vector<std::string> sbatch_args;
    bool wait = true;
};

// The flags of `trainscope run` that choose and configure the executor; unset ones come
// from the matrix file.
struct ExecutorFlags {
    std::optional<std::string> kind;
    std::optional<std::string> partition;
    std::optional<std::string> account;
    std::optional<std::string> time_per_cell;
    std::optional<int> gpus_per_cell;
    std::optional<int> max_parallel;
    std::vector<std::string> sbatch_args;  // added after the file's
    std::optional<bool> wait;
};

// The keys an [executor] table may hold.
const std::vector<std::string>& executor_setting_names();

// Flags over the file's [executor] values (text, as the matrix file reader keeps them).
// Throws UsageError naming the setting, the bad value and what it takes.
ExecutorSettings resolve_executor_settings(const std::map<std::string, std::string>& file,
                                           const ExecutorFlags& flags);

// Seconds in a Slurm time limit: "SS", "MM:SS", "HH:MM:SS" or "D-HH[:MM[:SS]]"; nullopt
// when the text is none of those.
std::optional<long> parse_slurm_duration(const std::string& text);

}  // namespace trainscope::harness
