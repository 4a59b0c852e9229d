#pragma once

#include <string>
#include <vector>

#include "harness/capture/TelemetryWindow.hpp"
#include "harness/matrix/Cell.hpp"
#include "harness/runner/MeasurementController.hpp"
#include "reports/store/RunRecord.hpp"
#include "workloads/training/TrainingConfig.hpp"

namespace trainscope::harness {

// Trains a framework=pytorch cell with the Python worker (docs/pytorch.md) and fills
// `record` (axes and start time already set) as run_cell does for its own cells: the
// worker reports each step to `controller` as it goes, which stops it by the same
// stopping rule (a `config` without a fixed length carries the rule's backstop) and
// divergence check as the engine's cells; the raw step times, losses and evaluations go
// through the same RunMetrics code; its torch.profiler trace is imported by the Kineto
// importer, and a traced cell runs the same tracing-overhead probe over a second worker.
// A worker that fails, or a model whose parameter count differs from trainscope's,
// makes the run `failed` with the cause. workloads::ConfigError (bad user input)
// propagates; the caller records the controller's outcome.
// Returns the measured steps' intervals on the host clock (the worker times with
// CLOCK_MONOTONIC, which is steady_clock here), for the telemetry window.
std::vector<TimeInterval> run_pytorch_cell(const Cell& cell,
                                           const workloads::TrainingConfig& config,
                                           MeasurementController& controller,
                                           const std::string& python, reports::RunRecord& record);

}  // namespace trainscope::harness
