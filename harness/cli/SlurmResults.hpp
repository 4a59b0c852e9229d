#pragma once

#include <memory>
#include <string>

#include "harness/executor/SlurmClient.hpp"

namespace trainscope::harness {

// Slurm's client when this machine has squeue, else null: collect and status also work
// from the result files alone, on a machine that only sees the shared file system.
std::unique_ptr<SlurmClient> optional_slurm_client();

// Throws UsageError unless `out` exists and has a matrix run with --executor slurm.
void require_slurm_results(const std::string& out);

}  // namespace trainscope::harness
