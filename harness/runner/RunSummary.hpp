#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/matrix/Cell.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::harness {

// "precision=fp32 batch=64": the varying axes of a cell, or its model when none vary.
std::string cell_label(const Cell& cell, const std::vector<std::string>& varying_axes);

// One run's outcome in a few lines on stderr: images/s, median step time, final loss,
// test accuracy, or the failure.
void print_run_result(const reports::RunRecord& run);

// The cell whose timeline a user should open first: of the ok runs that have a trace
// (`traced_ids`), the one with the lowest images/s, where there is most to explain.
std::optional<std::int64_t> run_to_open(const std::vector<reports::RunRecord>& runs,
                                        const std::vector<std::int64_t>& traced_ids);

// The end-of-matrix table: one row per cell, the varying axes as columns.
void print_summary_table(const std::vector<reports::RunRecord>& runs,
                         const std::vector<std::string>& varying_axes);

}  // namespace trainscope::harness
