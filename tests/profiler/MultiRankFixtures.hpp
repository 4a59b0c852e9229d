#pragma once

#include <string>

#include "profiler/formats/JobAssembly.hpp"

namespace trainscope::profiler::testing {

// One multi-rank set of ../shared/traces/multirank (all its files) imported as one job,
// once per test process.
const JobAssembly& multirank_job(const std::string& set);

}  // namespace trainscope::profiler::testing
