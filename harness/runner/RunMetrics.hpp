#pragma once

#include <vector>

#include "reports/store/RunRecord.hpp"
#include "workloads/training/TrainingConfig.hpp"
#include "workloads/training/TrainingResult.hpp"

namespace trainscope::harness {

// The stored metrics of a finished training run: throughput and step-time statistics
// over the measured (non-warm-up) steps, loss, accuracy, memory. Tags and units are
// documented in docs/formats.md.
std::vector<reports::Metric> compute_run_metrics(const workloads::TrainingConfig& config,
                                                 const workloads::TrainingResult& result);

std::vector<reports::StepRow> to_step_rows(const workloads::TrainingResult& result);
std::vector<reports::EvalRow> to_eval_rows(const workloads::TrainingResult& result);

}  // namespace trainscope::harness
