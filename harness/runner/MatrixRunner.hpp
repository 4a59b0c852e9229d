#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/runner/MatrixPlan.hpp"
#include "harness/runner/ProgressReporter.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::harness {

struct MatrixRunOptions {
    std::filesystem::path out;
    bool resume = false;
    ProgressStyle progress = ProgressStyle::Lines;
};

struct MatrixRunResult {
    std::int64_t matrix_id = 0;
    std::vector<reports::RunRecord> runs;  // recorded by this invocation, in cell order
    std::size_t already_done = 0;          // ok cells found when resuming
    bool interrupted = false;
    bool detached = false;    // the cells were handed to a scheduler that runs them later
    std::size_t waiting = 0;  // cells a scheduler ran but no result or reason came back for
};

// The latest matrix in `out` with the same definition: the one --resume continues.
std::optional<std::int64_t> find_resumable_matrix(const std::filesystem::path& out,
                                                  const std::string& definition);

// Runs every cell of the plan, each in its own child process, and writes each run to
// the results database as soon as it ends (one transaction per run). With `resume`, the
// latest matrix of the same definition in `out` continues: its ok cells are not run
// again and its failed or skipped cells are replaced. Bad input found in the first
// cell, before anything is written, throws workloads::ConfigError; later it is recorded
// as that cell's failure.
MatrixRunResult run_matrix(const MatrixPlan& plan, const MatrixRunOptions& options);

}  // namespace trainscope::harness
