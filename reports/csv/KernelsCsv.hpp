#pragma once

#include <filesystem>
#include <vector>

#include "reports/csv/CsvWriter.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// kernels.csv: one row per run and GPU activity name (kernels, memcpys, memsets) with
// the duration statistics of profiler::analyze_kernel_breakdown in microseconds, the
// category, the tensor-core flag and the launch configuration of the longest instance.
// Runs without a trace contribute no rows.
std::vector<CsvCell> kernels_header();
std::vector<std::vector<CsvCell>> kernel_rows(const RunRecord& run);
CsvTable kernels_table(const std::vector<RunRecord>& runs);

}  // namespace trainscope::reports
