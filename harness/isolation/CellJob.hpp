#pragma once

#include <filesystem>
#include <string>

#include "harness/matrix/Cell.hpp"
#include "harness/runner/CellRunner.hpp"
#include "harness/runner/ProgressReporter.hpp"

namespace trainscope::harness {

// Everything a child process needs to run one cell, as handed over in a JSON file.
struct CellJob {
    Cell cell;
    RunLength length;
    StoppingRule stopping;
    FaultInjection fault;
    ProgressStyle progress_style = ProgressStyle::Lines;
    int index = 1;
    int count = 1;
    std::string label;
};

void write_cell_job(const CellJob& job, const std::filesystem::path& file);
CellJob read_cell_job(const std::filesystem::path& file);

}  // namespace trainscope::harness
