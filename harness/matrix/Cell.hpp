#pragma once

#include <map>
#include <string>
#include <vector>

namespace trainscope::harness {

// One cell of a matrix: a value for every axis (axis name -> value text), in the
// vocabulary of AxisCatalog. skip_reason is set when the cell cannot run as asked on
// its backend; it is recorded as `skipped`, never run as something else.
struct Cell {
    std::map<std::string, std::string> values;
    std::string skip_reason;

    [[nodiscard]] const std::string& at(const std::string& axis) const;
    // Canonical text of the axis values in catalog order: "model=seed-cnn;precision=fp32;...".
    // A ';', '=' or '\\' in a value is written after a backslash; values without them
    // give the keys stored before the escape existed (resume matches them).
    [[nodiscard]] std::string key() const;
    // The inverse of key(), for cells read back from a results database (runs.cell_key).
    // Values are the text key() wrote; no axis is validated or defaulted.
    [[nodiscard]] static Cell from_key(const std::string& key);
};

// Axis name -> the values it takes; axes not named take their default.
using AxisValues = std::map<std::string, std::vector<std::string>>;

// The cartesian product of the axes. Validates every value (UsageError naming axis, value
// and the valid ones). Order: the axes in catalog order with the last varying fastest,
// except `framework`, which varies fastest of all: a case's trainscope and PyTorch cells
// are neighbours, so both sides of a comparison run under the same load, not minutes
// apart. Cell::key keeps the catalog order whatever the expansion's.
std::vector<Cell> expand_matrix(const AxisValues& axes);

// Alternates which framework goes first from one case (a run of neighbouring cells that
// differ only in framework) to the next: the k-th such case of two or more cells has its
// frameworks rotated by k (trainscope, pytorch; then pytorch, trainscope; ...), so a
// drift of load along the matrix favours neither side. Applied to the final cells
// (after excludes and duplicates), so the alternation is exact among the cells that run.
void alternate_framework_order(std::vector<Cell>& cells);

// Drops cells whose values became identical after normalisation (a resnet-only depth
// on seed-cnn is "n/a"), keeping the first.
std::vector<Cell> deduplicate(std::vector<Cell> cells);

// The axes that take more than one value: the columns worth showing in a summary.
std::vector<std::string> varying_axes(const std::vector<Cell>& cells);

}  // namespace trainscope::harness
