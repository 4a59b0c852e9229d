#pragma once

#include "harness/matrix/Cell.hpp"
#include "harness/runner/CellConfig.hpp"
#include "harness/runner/FaultInjection.hpp"
#include "harness/runner/StoppingRule.hpp"
#include "reports/store/RunRecord.hpp"
#include "workloads/training/TrainingResult.hpp"

namespace trainscope::harness {

struct CellRunOptions {
    RunLength length;
    StoppingRule stopping;
    FaultInjection fault;
    workloads::TrainingObserver* progress = nullptr;
    // The CPU's bandwidth measured once for all ranks (host_bandwidth_for_ranks); 0: measure.
    double host_bandwidth_bytes_per_s = 0.0;
};

// Runs one cell's training in this process and turns the outcome into a run record:
// `skipped` with the reason for a cell its backend cannot run, `failed` with the cause
// for a run that throws or diverges, `ok` with metrics, steps and evaluations.
// workloads::ConfigError (bad user input) propagates to the caller.
reports::RunRecord run_cell(const Cell& cell, const CellRunOptions& options);

}  // namespace trainscope::harness
