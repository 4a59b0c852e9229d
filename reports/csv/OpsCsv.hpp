#pragma once

#include <map>
#include <vector>

#include "reports/csv/CsvWriter.hpp"
#include "reports/roofline/Roofline.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// ops.csv: one row per run, rank and op name that carries work (reports::op_roofline):
// count, FLOPs, minimum bytes, device time, arithmetic intensity, achieved FLOP/s and
// bandwidth, the share of the roof above it and which roof that is. The roofs come from
// the run's own metrics (peak_tflops, peak_bandwidth_gbps). Runs without a trace, or
// whose ops carry no work (traces older than schema 4, imported traces), give no rows.
std::vector<CsvCell> ops_header();
// `run` holds its metrics and its trace.
std::vector<std::vector<CsvCell>> ops_rows(const RunRecord& run);
// The same rows from each rank's roofline (run: its identity only).
std::vector<std::vector<CsvCell>> ops_rows(
    const RunRecord& run, const std::map<std::int32_t, std::vector<OpRooflineRow>>& by_rank);

}  // namespace trainscope::reports
