#pragma once

#include <CLI/CLI.hpp>

#include "harness/executor/ExecutorSettings.hpp"

namespace trainscope::harness {

// The executor flags of `trainscope run` (--executor, --partition, ... --no-wait).
void add_executor_options(CLI::App& run, ExecutorFlags& flags);

}  // namespace trainscope::harness
