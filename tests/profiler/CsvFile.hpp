#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace trainscope::profiler::testing {

// Rows of an RFC 4180 CSV file (quoted fields may hold commas, "" is a quote); the
// first row is the header. For reading the reference CSVs of TraceLens in tests.
std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& file);

}  // namespace trainscope::profiler::testing
