#pragma once

#include <string>

#include "harness/matrix/Cell.hpp"
#include "reports/store/RunRecord.hpp"
#include "workloads/training/TrainingConfig.hpp"

namespace trainscope::harness {

// Settings of a run that are not matrix axes: the length of training and the host.
struct RunLength {
    std::int64_t steps = 0;  // 0: epochs
    int epochs = 1;
    int warmup_steps = 5;
    int threads = 0;  // 0: all cores, divided among a multi-rank cell's ranks on a node
    std::uint64_t seed = 1;
    std::string dataset_dir;
    std::string input_shape;  // synthetic
    int classes = 10;
    std::optional<double> target_accuracy;
    std::int64_t eval_every_steps = 0;
    std::string python = "python3";  // the interpreter of framework=pytorch cells
};

// Marks the axes a backend does not have as "n/a", and sets cell.skip_reason when a
// cell asks for something its backend cannot do (allocator=async on the CPU), so it is
// recorded as skipped and never run as something else. `backend` is already resolved.
void apply_backend_applicability(Cell& cell, workloads::BackendKind backend);

// Parses the cell's axis text into the engine's types (ConfigError names a bad value; a
// cell from expand_matrix or a checked job file has none). An "n/a" axis takes the
// engine's default, which is what its backend does.
workloads::TrainingConfig make_training_config(const Cell& cell, const RunLength& length);

// The runs-table axes of a cell (what the store records).
reports::RunAxes make_run_axes(const Cell& cell, const RunLength& length);

}  // namespace trainscope::harness
