#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace trainscope::harness {

// One run setting (how long and how to measure each cell): a [run] key of a matrix file
// and its CLI flag. The file and the command line go through the same parser and the same
// bounds, so both refuse the same values in the same words (docs/formats.md, "Limits").
struct RunSettingInfo {
    enum class Kind { Integer, Number, Text };
    std::string_view name;  // "threads": the matrix file's key
    std::string_view flag;  // "--threads"
    Kind kind = Kind::Integer;
    std::int64_t int_min = 0;  // inclusive bounds of an Integer
    std::int64_t int_max = 0;
    double min = 0;  // bounds of a Number
    double max = 0;
    bool min_exclusive = false;  // a Number that must be above min (rse > 0)
};

const std::vector<RunSettingInfo>& run_setting_catalog();
const RunSettingInfo* find_run_setting(std::string_view name);

// The most CPU threads a cell may ask for: four per hardware thread. More only
// oversubscribes the cores (30,000 thrashed a machine for minutes; 100,000 crashed
// libgomp) and measures the scheduler, not the training.
int max_cpu_threads();

// Where a setting's text came from, for messages: "--steps" or "matrix.toml: steps".
struct SettingText {
    std::string text;
    std::string origin;
};

// Parses a setting's text against its bounds; throws UsageError naming the origin, the
// text as given and the allowed range in plain numbers. Out-of-range values are refused,
// never capped.
std::int64_t parse_integer_setting(const RunSettingInfo& setting, const SettingText& value);
double parse_number_setting(const RunSettingInfo& setting, const SettingText& value);

// Splits comma-separated CLI axis values ("32,64"; the flag may be repeated). An empty
// item ("32,,64", a trailing comma) is refused rather than dropped, since it is a typo
// that would silently shrink the matrix.
std::vector<std::string> split_axis_values(std::string_view flag,
                                           const std::vector<std::string>& given);

}  // namespace trainscope::harness
