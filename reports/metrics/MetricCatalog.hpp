#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace trainscope::reports {

// Which way a metric improves: compare says "better" or "worse" by it.
enum class Direction { HigherIsBetter, LowerIsBetter, Neither };

// One stored metric tag as people read it (nvbench's summaries: tag, name, unit hint,
// description). The tag is what the store, the CSV files and scripts use; the rest is
// for tables, charts and compare.
struct MetricInfo {
    std::string_view tag;   // "step_ms_median"
    std::string_view name;  // "Step time, median"
    std::string_view unit;  // "ms"; "" for counts
    Direction direction = Direction::Neither;
    std::string_view description;  // one sentence
    bool key = false;              // among the columns a runs table shows by default
};

// Every metric trainscope writes, the important ones first (the order of table columns).
std::span<const MetricInfo> metric_catalog();

// nullptr for a tag trainscope does not write (an imported or future metric). The
// per-operation call counts (op_<operation>_per_step) share one entry.
const MetricInfo* find_metric_info(std::string_view tag);

// The one unit of a metric, stored and shown: the catalog's for every tag it knows (the
// writers give none; the store writes this and its reader returns this, whatever an older
// file holds), else `unit_outside_catalog` (an imported or future metric keeps its own).
std::string_view metric_unit(std::string_view tag, std::string_view unit_outside_catalog = "");

// "Step time, median (ms)". A tag outside the catalog shows as itself with the unit
// stored beside it: "my_metric (ms)".
std::string metric_label(std::string_view tag, std::string_view stored_unit = "");

// Column position: the catalog's order, then unknown tags (callers sort those by tag).
std::size_t metric_rank(std::string_view tag);

// A metric stored without a value (SQL NULL; NaN once read) is a loss that was not a
// number: the training diverged. Tables, CSV files and the GUI show this word instead.
inline constexpr std::string_view kDivergedText = "diverged";

// "higher is better", "lower is better", "" for Neither.
std::string_view to_string(Direction direction);

}  // namespace trainscope::reports
