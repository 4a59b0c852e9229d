#pragma once

#include <optional>
#include <span>

#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// Data-parallel scaling efficiency (docs/distributed.md): the images/s of N ranks over N
// times the images/s of one rank, 1.0 for perfect scaling. Empty for N < 1 or no baseline.
std::optional<double> scaling_efficiency(double images_per_s, long long ranks,
                                         double single_rank_images_per_s);

// The efficiency of `run` against the ok 1-rank run among `runs` of its matrix whose
// axes are the same but for ranks, bucket_mb and overlap (which one rank does not use).
std::optional<double> scaling_efficiency(const RunRecord& run, std::span<const RunRecord> runs);

}  // namespace trainscope::reports
