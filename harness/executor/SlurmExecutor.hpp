#pragma once

#include "harness/executor/Executor.hpp"
#include "harness/executor/SlurmClient.hpp"

namespace trainscope::harness {

// Submits the cells that still need a result as ONE Slurm job array (one task per cell,
// `%max_parallel` at once), each task running its cell like the local executor does and
// leaving its run in the results folder; with `wait`, follows the array with a progress
// line and collects at the end.
class SlurmExecutor final : public Executor {
  public:
    explicit SlurmExecutor(ExecutorSettings settings);  // throws when sbatch is missing
    MatrixRunResult run(const MatrixPlan& plan, const MatrixRunOptions& options) override;

  private:
    ExecutorSettings settings_;
    SlurmClient slurm_;
};

}  // namespace trainscope::harness
