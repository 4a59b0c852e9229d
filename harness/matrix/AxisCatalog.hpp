#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trainscope::harness {

// One axis of a benchmark matrix, in the project's vocabulary (docs/cli.md).
struct AxisInfo {
    std::string name;  // as in matrix files and the runs table: "precision"
    std::string flag;  // CLI flag: "--precision"
    std::string description;
    std::string default_value;
    std::vector<std::string> values;  // allowed values; empty: any (validated by kind)
    enum class Kind {
        Choice,
        PositiveInteger,
        NonNegativeInteger,
        PositiveNumber,
        Text
    } kind = Kind::Choice;
    bool gpu_only = false;  // a CPU run records "n/a" (or skips a non-default value)
};

// Spellings the harness owns. The training axes' spellings live beside their enums in
// workloads (parse_allocator, to_string(Allocator), ...), which the catalog lists.
inline constexpr std::string_view kAutoBackend = "auto";               // backend: pick at run time
inline constexpr std::string_view kNotApplicable = "n/a";              // an axis the backend lacks
inline constexpr std::array<std::string_view, 2> kOffOn{"off", "on"};  // cuda_graph

// cuda_graph's text: "on" is true, "off" false (validated by the catalog before).
bool parse_on_off(std::string_view text);

const std::vector<AxisInfo>& axis_catalog();
const AxisInfo* find_axis(std::string_view name);

// Throws UsageError naming the axis, the bad value and the valid ones.
void validate_axis_value(const AxisInfo& axis, const std::string& value);

}  // namespace trainscope::harness
