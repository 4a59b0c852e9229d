#pragma once

#include <vector>

#include "profiler/analysis/CollectiveMatching.hpp"
#include "profiler/analysis/RankTimeBreakdown.hpp"
#include "reports/csv/CsvWriter.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// One row per rank of a distributed job's run (runs of one process have none): the
// per-rank temporal breakdown and overlap, and the straggling at collectives, as
// `trainscope analyze` prints them. The HTML report's per-rank table.
std::vector<CsvCell> ranks_header();
std::vector<std::vector<CsvCell>> rank_rows(const RunRecord& run);
// The same rows from a job's breakdown and stragglers (run: its identity only).
std::vector<std::vector<CsvCell>> rank_rows(const RunRecord& run,
                                            const std::vector<profiler::RankTimeBreakdown>& ranks,
                                            const profiler::StragglerReport& stragglers);

}  // namespace trainscope::reports
