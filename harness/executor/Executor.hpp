#pragma once

#include <memory>

#include "harness/executor/ExecutorSettings.hpp"
#include "harness/runner/MatrixPlan.hpp"
#include "harness/runner/MatrixRunner.hpp"

namespace trainscope::harness {

// Where the cells of a planned matrix run. Every executor runs each cell the same way
// (a child process, harness/isolation) and ends with the runs in the results database;
// they differ in who starts the cells and when.
class Executor {
  public:
    virtual ~Executor() = default;
    // Runs (or hands over) the cells that still need a result. Bad input or a missing
    // scheduler throws UsageError before anything is written.
    virtual MatrixRunResult run(const MatrixPlan& plan, const MatrixRunOptions& options) = 0;
};

// The local executor runs the cells one after another on this machine; the slurm one
// submits them as one job array. Checks what the executor needs (the Slurm commands)
// here, so that a missing one fails before anything is written.
std::unique_ptr<Executor> make_executor(const ExecutorSettings& settings);

}  // namespace trainscope::harness
