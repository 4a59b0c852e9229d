#pragma once

#include <string>
#include <vector>

#include "common/InputError.hpp"
#include "reports/csv/CsvWriter.hpp"
#include "reports/metrics/MetricTags.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// A bad --metric, --rows or --cols: the message names it and lists the valid choices.
class PivotError : public InputError {
  public:
    using InputError::InputError;
};

struct PivotSpec {
    std::string metric = metric_tag::images_per_s;
    std::string rows = "batch";
    std::string cols = "precision";
};

// The metrics a pivot can show: runs.csv's documented metric columns and every metric
// the runs carry, in that order, without duplicates.
std::vector<std::string> pivot_metric_names(const std::vector<RunRecord>& runs);

// matrix.csv: one metric over two axes. The header is "<rows> \ <cols>: <metric>"
// followed by the column-axis values; each row starts with a row-axis value. Axis
// values are the non-empty ones of all given runs (numeric order when every value is a
// number, text order otherwise), so a cell whose runs all failed is still shown, empty;
// runs without a value for either axis (imported traces) are left out. A cell holds the
// mean of the metric over the ok runs in it that have the metric; empty if none.
// Throws PivotError for an unknown metric or axis, or rows == cols.
CsvTable matrix_pivot_table(const std::vector<RunRecord>& runs, const PivotSpec& spec);

// The axis values in pivot order (see above).
std::vector<std::string> pivot_axis_values(const std::vector<RunRecord>& runs,
                                           const std::string& axis);

}  // namespace trainscope::reports
