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
    // A multi-rank CPU cell's memory bandwidth, measured once by the cell's parent before
    // the ranks start (host_bandwidth_for_ranks); 0: the child measures its own.
    double host_bandwidth_bytes_per_s = 0.0;
};

void write_cell_job(const CellJob& job, const std::filesystem::path& file);
CellJob read_cell_job(const std::filesystem::path& file);

}  // namespace trainscope::harness
