#pragma once

#include <vector>

#include "reports/csv/CsvWriter.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// One row per rank of a distributed job's run (runs of one process have none): the
// per-rank temporal breakdown and overlap, and the straggling at collectives, as
// `trainscope analyze` prints them. The HTML report's per-rank table.
std::vector<CsvCell> ranks_header();
std::vector<std::vector<CsvCell>> rank_rows(const RunRecord& run);

}  // namespace trainscope::reports
