#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/matrix/Cell.hpp"
#include "harness/matrix/MatrixFile.hpp"
#include "harness/runner/CellConfig.hpp"
#include "harness/runner/FaultInjection.hpp"
#include "harness/runner/StoppingRule.hpp"

namespace trainscope::harness {

// Run settings given on the command line, by setting name ("steps") as typed; unset ones
// come from the matrix file's [run] table, then from the defaults. Both are parsed and
// bounded by the same function (harness/matrix/RunSettings).
using RunSettingOverrides = std::map<std::string, std::string>;

// A matrix ready to run: the expanded, validated cells and how to measure each.
struct MatrixPlan {
    std::string name;
    std::vector<Cell> cells;  // backend resolved; skip reasons set
    std::vector<std::string> varying_axes;
    RunLength length;
    StoppingRule stopping;
    std::chrono::seconds timeout{3600};
    FaultInjection fault;
    std::string backend_notice;   // "no CUDA device: running on the CPU backend"
    std::string definition_json;  // stored with the matrix; resume matches on it
};

// Merges the file's axes with the CLI's (a CLI axis replaces the file's), applies the
// settings and excludes, resolves `auto` backends, marks n/a axes and skips, and drops
// duplicates. Throws UsageError for any bad input.
// With `for_dry_run`, a matrix no cell of which can run here is still planned (to be
// printed) instead of failing.
MatrixPlan make_matrix_plan(const MatrixDefinition& file, const AxisValues& cli_axes,
                            const RunSettingOverrides& cli_settings,
                            const std::string& command_line, bool for_dry_run = false);

// What makes two stored matrix definitions the same matrix (for --resume and the
// results file's lock): the set of cell keys, in any order, and the settings; none for
// text that is not a definition.
std::optional<std::string> matrix_identity(const std::string& definition_json);

// True when two stored matrix definitions describe the same cells and settings.
bool same_matrix(const std::string& definition_json_a, const std::string& definition_json_b);

}  // namespace trainscope::harness
