#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "profiler/analysis/KernelBreakdownAnalysis.hpp"
#include "reports/csv/MatrixPivot.hpp"
#include "reports/roofline/Roofline.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// What the one-file summary shows. Runs carry metrics, environment and steps; their
// traces are not needed (kernels holds the breakdown of each traced run, so a report
// over many traced runs never holds all traces at once).
struct HtmlReportInput {
    std::string title;  // e.g. the database file name
    std::vector<MatrixRow> matrices;
    std::vector<RunRecord> runs;
    std::map<std::int64_t, profiler::KernelBreakdown> kernels;     // by run id
    std::map<std::int64_t, std::vector<OpRooflineRow>> rooflines;  // by run id; traced runs
    CsvTable ranks;  // per rank of distributed jobs' runs (RanksTable); empty: none
    PivotSpec pivot;
};

// The summary as one self-contained HTML document: inline CSS and SVG, no scripts, no
// fonts, no network references. Sections: environment, matrix table (the pivot) and
// runs, throughput against batch size per precision (CI whiskers), step-time box plots
// per run, kernel time by category per traced run, the roofline of each traced run whose
// ops carry work, the ranks of distributed jobs' runs,
// peak memory per memory strategy.
// Every text from the database is HTML-escaped. Throws PivotError for a bad pivot.
std::string render_html_report(const HtmlReportInput& input);

// Writes render_html_report() to "<file>.tmp" and renames it over file.
void write_html_report(const HtmlReportInput& input, const std::filesystem::path& file);

}  // namespace trainscope::reports
