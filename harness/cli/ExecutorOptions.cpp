#include "harness/cli/ExecutorOptions.hpp"

namespace trainscope::harness {

void add_executor_options(CLI::App& run, ExecutorFlags& flags) {
    const std::string group = "Executor (where the cells run; docs/cluster.md)";
    run.add_option("--executor", flags.kind,
                   "local: one cell after another on this machine (default); slurm: one Slurm "
                   "job array, a task per cell")
        ->check(CLI::IsMember({"local", "slurm"}))
        ->group(group);
    run.add_option("--partition", flags.partition, "Slurm partition of the array's tasks")
        ->group(group);
    run.add_option("--account", flags.account, "Slurm account to charge")->group(group);
    run.add_option("--time-per-cell", flags.time_per_cell,
                   "Slurm time limit of each cell's task, HH:MM:SS (Slurm counts whole minutes)")
        ->group(group);
    run.add_option("--gpus-per-cell", flags.gpus_per_cell,
                   "GPUs each task asks for (--gres=gpu:K); the cell uses the one Slurm hands it")
        ->check(CLI::NonNegativeNumber)
        ->group(group);
    run.add_option("--max-parallel", flags.max_parallel,
                   "at most N tasks of the array at once (--array=...%N)")
        ->check(CLI::PositiveNumber)
        ->group(group);
    run.add_option("--sbatch-arg", flags.sbatch_args,
                   "one more sbatch argument, as written (repeatable), e.g. --sbatch-arg=--mem=8G")
        ->allow_extra_args(false)
        ->group(group);
    run.add_flag_callback(
           "--wait", [&flags]() { flags.wait = true; },
           "follow the array with a progress line and collect its results at the end (default)")
        ->group(group);
    run.add_flag_callback(
           "--no-wait", [&flags]() { flags.wait = false; },
           "return as soon as the array is submitted; 'trainscope collect' merges it later")
        ->group(group);
}

}  // namespace trainscope::harness
