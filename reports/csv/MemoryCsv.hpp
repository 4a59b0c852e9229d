#pragma once

#include <vector>

#include "reports/csv/CsvWriter.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// memory.csv: one row per run, rank and tensor class at the rank's memory peak (RunRecord's
// memory_peak and other_rank_memory_peaks): the class's bytes then and its share of the
// peak, the most it held at any time, the peak itself, and for traced runs its moment and
// the phase and op running then. Runs without a recorded peak (imported traces, failed
// runs) contribute no rows.
std::vector<CsvCell> memory_header();
std::vector<std::vector<CsvCell>> memory_rows(const RunRecord& run);
CsvTable memory_table(const std::vector<RunRecord>& runs);

}  // namespace trainscope::reports
