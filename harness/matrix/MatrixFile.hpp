#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/matrix/Cell.hpp"

namespace trainscope::harness {

// A combination of axis values that a matrix leaves out: a cell matching every entry
// of one rule is dropped.
using ExcludeRule = std::map<std::string, std::string>;

// What a matrix file (TOML) defines: axes, exclusions, and run settings by name
// ("steps", "warmup", ...), all as text so that CLI flags can override them uniformly.
struct MatrixDefinition {
    std::string name;
    std::string description;
    AxisValues axes;
    std::vector<ExcludeRule> excludes;
    std::map<std::string, std::string> settings;
    // [executor]: where the cells run (harness/executor/ExecutorSettings); a list
    // (sbatch_args) as its elements joined by newlines.
    std::map<std::string, std::string> executor;
    std::string source_text;  // the file as read, stored with the matrix
    std::string source_name;  // its path, for messages
};

// Reads a matrix file; throws UsageError naming the file, line and the problem.
MatrixDefinition load_matrix_file(const std::filesystem::path& path);
MatrixDefinition parse_matrix_text(const std::string& text, const std::string& source_name);

// The run settings a matrix file may set under [run].
const std::vector<std::string>& matrix_setting_names();

// Drops the cells that match an exclude rule (rules are validated against the catalog).
std::vector<Cell> apply_excludes(std::vector<Cell> cells, const std::vector<ExcludeRule>& rules);

}  // namespace trainscope::harness
