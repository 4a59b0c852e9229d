#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "reports/csv/CsvWriter.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// Version of the CSV column sets documented in docs/formats.md (2: adds kernels.csv,
// steps.csv, nvtx.csv and matrix.csv; runs.csv as in 1).
inline constexpr int kCsvFormatVersion = 7;

// The documented metric columns of runs.csv, in order; metrics a run has beyond these
// follow in name order.
const std::vector<std::string>& runs_csv_metric_columns();

// Header and rows of runs.csv: identity and status, every axis, backend facts, then
// metrics. Runs must carry their metrics and environment.
std::vector<std::vector<CsvCell>> runs_table(const std::vector<RunRecord>& runs);

void write_runs_csv(const std::vector<RunRecord>& runs, const std::filesystem::path& file);

}  // namespace trainscope::reports
