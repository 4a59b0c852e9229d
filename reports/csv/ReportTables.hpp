#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "profiler/analysis/KernelBreakdownAnalysis.hpp"
#include "reports/csv/CsvWriter.hpp"
#include "reports/csv/MatrixPivot.hpp"
#include "reports/roofline/Roofline.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// Which tables to build. Kernels, nvtx and breakdowns need the runs' traces. Set fields
// by name (from the defaults, or from nothing()), never by position: a field added later
// then changes no caller's choice.
struct ReportSelection {
    bool runs = true;
    bool kernels = true;
    bool steps = true;
    bool nvtx = true;
    bool matrix = true;
    bool breakdowns = false;  // kernel time by category per traced run (the HTML report)
    bool ops = true;          // ops.csv: the roofline per op name (OpsCsv)
    bool memory = true;       // from the runs' memory peaks (loaded with their metrics)

    // No table selected: for a caller that wants one or two by name.
    [[nodiscard]] static ReportSelection nothing() {
        ReportSelection none;
        none.runs = none.kernels = none.steps = none.nvtx = none.matrix = false;
        none.breakdowns = none.ops = none.memory = false;
        return none;
    }
};

// Every export table of `trainscope report`, built in memory before anything is written.
struct ReportTables {
    CsvTable runs;
    CsvTable kernels;
    CsvTable steps;
    CsvTable nvtx;
    CsvTable ops;
    CsvTable matrix;
    CsvTable memory;
    std::map<std::int64_t, profiler::KernelBreakdown> breakdowns;  // by run id
    // The roofline of each traced run whose ops carry work, with breakdowns (HTML report).
    std::map<std::int64_t, std::vector<OpRooflineRow>> rooflines;
    CsvTable ranks;  // per rank of distributed jobs' runs, with breakdowns (RanksTable)
};

// Builds the selected tables from runs loaded with metrics and environment (and steps
// for the steps table). Traces are loaded from db one run at a time and dropped after
// use, so memory holds one trace at most. Throws PivotError for a bad pivot spec.
ReportTables build_report_tables(const ResultsDatabase& db, const std::vector<RunRecord>& runs,
                                 const ReportSelection& selection, const PivotSpec& pivot);

}  // namespace trainscope::reports
