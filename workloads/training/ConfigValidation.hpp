#pragma once

#include "workloads/training/TrainingConfig.hpp"

namespace trainscope::workloads {

// Checks the run-level parameters of a config (counts, optimizer values, memory axes
// for the chosen backend); model, dataset and shape checks happen where those are built.
// Throws ConfigError naming the parameter, the bad value and the valid values.
void validate_run_parameters(const TrainingConfig& config);

}  // namespace trainscope::workloads
