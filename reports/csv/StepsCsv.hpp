#pragma once

#include <vector>

#include "reports/csv/CsvWriter.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// steps.csv: one row per run and training step (warm-up included), in run and step
// order. Runs must carry their steps (RunParts::steps).
std::vector<CsvCell> steps_header();
std::vector<std::vector<CsvCell>> step_rows(const RunRecord& run);
CsvTable steps_table(const std::vector<RunRecord>& runs);

}  // namespace trainscope::reports
