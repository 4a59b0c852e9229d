#pragma once

#include <vector>

#include "profiler/analysis/NvtxProjectionAnalysis.hpp"
#include "reports/csv/CsvWriter.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// nvtx.csv: one row per run and host NVTX range name, aggregating every instance of
// that name (all depths): instance count, summed and mean host duration, and the GPU
// work the instances launched (profiler::project_nvtx_ranges_to_gpu) summed over the
// instances. Nested ranges each count their own launches, so a parent's numbers include
// its children's. Rows by run, then by host time (largest first), then name. Runs
// without a trace or without NVTX ranges contribute no rows.
std::vector<CsvCell> nvtx_header();
std::vector<std::vector<CsvCell>> nvtx_rows(const RunRecord& run);
// The same rows from the run's projected ranges (run: its identity only).
std::vector<std::vector<CsvCell>> nvtx_rows(const RunRecord& run,
                                            std::vector<profiler::NvtxRangeGpuTime> projected);
CsvTable nvtx_table(const std::vector<RunRecord>& runs);

}  // namespace trainscope::reports
