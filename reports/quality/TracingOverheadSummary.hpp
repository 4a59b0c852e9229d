#pragma once

#include <optional>
#include <string>

#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// What tracing cost the run's steps, in words, from the metrics the harness's A/B probe
// records (tracing_overhead_pct only when its interval excludes zero, and the interval
// tracing_overhead_pct_ci_low/high always):
//   "+3.1 % (95 % CI +1.2 % to +5.0 %)"
//   "not measurable: smaller than the noise (95 % CI -2.0 % to +3.1 %)"
// nullopt when the run was not traced or has no probe.
std::optional<std::string> tracing_overhead_summary(const RunRecord& run);

}  // namespace trainscope::reports
