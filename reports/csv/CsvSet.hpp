#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "reports/csv/CsvWriter.hpp"

namespace trainscope::reports {

struct NamedCsvTable {
    std::string file_name;  // "runs.csv"
    const CsvTable* table = nullptr;
};

// Writes the CSV files of one report into `dir` as a set: all of them go into a temporary
// folder first and are moved in only when every one is written, so a full disk or an
// error leaves the folder as it was, never half old and half new. `dir` is created when
// missing. Throws profiler::OutputFileError naming the path and the cause.
void write_csv_set(const std::filesystem::path& dir, const std::vector<NamedCsvTable>& files);

}  // namespace trainscope::reports
