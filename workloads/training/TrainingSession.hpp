#pragma once

#include "workloads/training/ConfigError.hpp"
#include "workloads/training/TrainingConfig.hpp"
#include "workloads/training/TrainingResult.hpp"

namespace trainscope::workloads {

// Runs one training run: validates the config (ConfigError naming the parameter),
// loads the data, trains with forward/backward/update on the chosen backend, evaluates
// on the test set after every epoch, every eval_every_steps steps and at the end, and
// reports each step and evaluation to the observer (which may stop the run).
// observer may be null.
TrainingResult run_training(const TrainingConfig& config, TrainingObserver* observer);

}  // namespace trainscope::workloads
