#pragma once

#include <vector>

#include "harness/capture/TelemetryWindow.hpp"
#include "harness/matrix/Cell.hpp"
#include "harness/runner/CellRunner.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::harness {

// Trains a framework=pytorch cell with the Python worker (docs/pytorch.md) and fills
// `record` (axes and start time already set) as run_cell does for its own cells: the
// worker's raw step times, losses and evaluations go through the same RunMetrics code;
// its torch.profiler trace is imported by the Kineto importer. A worker that fails, or a
// model whose parameter count differs from trainscope's, makes the run `failed` with
// the cause. workloads::ConfigError (bad user input) propagates.
// Returns the measured steps' intervals on the host clock (the worker times with
// CLOCK_MONOTONIC, which is steady_clock here), for the telemetry window.
std::vector<TimeInterval> run_pytorch_cell(const Cell& cell, const CellRunOptions& options,
                                           reports::RunRecord& record);

}  // namespace trainscope::harness
