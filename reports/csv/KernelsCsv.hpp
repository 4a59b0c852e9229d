#pragma once

#include <filesystem>
#include <functional>
#include <vector>

#include "profiler/analysis/KernelBreakdownAnalysis.hpp"
#include "reports/csv/CsvWriter.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// kernels.csv: one row per run and GPU activity name (kernels, memcpys, memsets) with
// the duration statistics of profiler::analyze_kernel_breakdown in microseconds, the
// category, the tensor-core flag and the launch configuration of the longest instance.
// Runs without a trace contribute no rows.
std::vector<CsvCell> kernels_header();
std::vector<std::vector<CsvCell>> kernel_rows(const RunRecord& run);
// The rows of one rank's breakdown (run: its identity only): `activity_at(i)` is the
// trace's activity at index i, the longest instance whose launch configuration a row
// carries (the trace's vector, or an ActivityReader of the stored run).
std::vector<std::vector<CsvCell>> kernel_rows(
    const RunRecord& run, const profiler::KernelBreakdown& breakdown,
    const std::function<profiler::Activity(std::size_t)>& activity_at, std::int32_t rank);
CsvTable kernels_table(const std::vector<RunRecord>& runs);

}  // namespace trainscope::reports
