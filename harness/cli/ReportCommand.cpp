#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>

#include "harness/cli/Commands.hpp"
#include "harness/cli/OutputPath.hpp"
#include "harness/cli/UsageError.hpp"
#include "profiler/sqlite/SqliteReadSnapshot.hpp"
#include "reports/csv/CsvSet.hpp"
#include "reports/csv/MatrixPivot.hpp"
#include "reports/csv/ReportTables.hpp"
#include "reports/csv/TableRenderer.hpp"
#include "reports/html/HtmlReportWriter.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope::harness {

namespace {

struct ReportOptions {
    std::string database;
    std::string csv_dir;
    std::string html_file;
    std::string format;
    std::string table = "runs";
    std::optional<std::int64_t> matrix;
    std::vector<std::int64_t> runs;
    reports::PivotSpec pivot;
};

constexpr const char* kTables = "runs, kernels, steps, nvtx, ops, matrix, memory";

bool wants(const ReportOptions& o, const char* table) {
    return !o.csv_dir.empty() || (!o.format.empty() && o.table == table);
}

const reports::CsvTable& table_named(const reports::ReportTables& t, const std::string& name) {
    if (name == "kernels")
        return t.kernels;
    if (name == "steps")
        return t.steps;
    if (name == "nvtx")
        return t.nvtx;
    if (name == "ops")
        return t.ops;
    if (name == "matrix")
        return t.matrix;
    if (name == "memory")
        return t.memory;
    return t.runs;
}

const std::vector<std::string>& csv_file_names() {
    static const std::vector<std::string> names{"runs.csv", "kernels.csv", "steps.csv",
                                                "nvtx.csv", "ops.csv",     "matrix.csv", "memory.csv"};
    return names;
}

int execute(const ReportOptions& options) {
    if (options.csv_dir.empty() && options.html_file.empty() && options.format.empty()) {
        throw UsageError(
            "nothing to write: add --csv DIR, --html FILE or --format "
            "csv|json|markdown|table");
    }
    std::optional<reports::TableFormat> format;
    if (!options.format.empty()) {
        format = reports::table_format_from_string(options.format);
        if (!format) {
            throw UsageError(fmt::format(
                "unknown --format '{}'; choose csv, json, markdown or table", options.format));
        }
    }
    const std::string tables = kTables;
    if (options.table != "runs" && options.table != "kernels" && options.table != "steps" &&
        options.table != "nvtx" && options.table != "ops" && options.table != "matrix" &&
        options.table != "memory") {
        throw UsageError(
            fmt::format("unknown --table '{}'; choose one of: {}", options.table, tables));
    }

    if (!options.csv_dir.empty())
        check_folder_output(options.csv_dir, "--csv", csv_file_names());
    if (!options.html_file.empty())
        check_file_output(options.html_file, "--html");

    const reports::ResultsDatabase db(options.database, reports::OpenMode::ReadOnly);
    // Every table from one state of the file, while a matrix may still be adding runs.
    const profiler::SqliteReadSnapshot snapshot(db);
    const reports::RunQuery query{options.matrix, options.runs};
    reports::RunParts parts;
    parts.steps = wants(options, "steps") || !options.html_file.empty();
    auto runs = reports::load_runs(db, query, parts);
    reports::ReportSelection selection;
    selection.runs = wants(options, "runs");
    selection.kernels = wants(options, "kernels");
    selection.steps = wants(options, "steps");
    selection.nvtx = wants(options, "nvtx");
    selection.ops = wants(options, "ops");
    selection.matrix = wants(options, "matrix") || !options.html_file.empty();
    selection.memory = wants(options, "memory");
    selection.breakdowns = !options.html_file.empty();
    reports::ReportTables t;
    try {
        t = reports::build_report_tables(db, runs, selection, options.pivot);
    } catch (const reports::PivotError& e) {
        throw UsageError(e.what());
    }

    if (!options.csv_dir.empty()) {
        const std::filesystem::path dir(options.csv_dir);
        const reports::CsvTable* tables_in_order[] = {&t.runs, &t.kernels, &t.steps,
                                                      &t.nvtx, &t.ops,     &t.matrix, &t.memory};
        std::vector<reports::NamedCsvTable> files;
        for (std::size_t i = 0; i < csv_file_names().size(); ++i)
            files.push_back({csv_file_names()[i], tables_in_order[i]});
        reports::write_csv_set(dir, files);
        for (const auto& [name, table] : files) {
            std::fprintf(stderr, "%s (%zu row%s)\n", (dir / name).c_str(), table->size() - 1,
                         table->size() == 2 ? "" : "s");
        }
    }
    if (!options.html_file.empty()) {
        reports::HtmlReportInput input;
        input.title = std::filesystem::path(options.database).filename().string();
        input.matrices = reports::list_matrices(db);
        if (options.matrix) {
            std::erase_if(input.matrices,
                          [&](const reports::MatrixRow& m) { return m.id != *options.matrix; });
        }
        input.runs = std::move(runs);
        input.kernels = std::move(t.breakdowns);
        input.rooflines = std::move(t.rooflines);
        input.ranks = std::move(t.ranks);
        input.pivot = options.pivot;
        try {
            reports::write_html_report(input, options.html_file);
        } catch (const reports::PivotError& e) {
            throw UsageError(e.what());
        }
        std::fprintf(stderr, "%s (%zu run%s)\n", options.html_file.c_str(), input.runs.size(),
                     input.runs.size() == 1 ? "" : "s");
    }
    if (format) {
        reports::render_table(table_named(t, options.table), *format, std::cout);
        std::cout.flush();
    }
    return 0;
}

}  // namespace

CommandAction add_report_command(CLI::App& app) {
    auto options = std::make_shared<ReportOptions>();
    CLI::App* report = app.add_subcommand(
        "report", "Export runs of a results database as CSV files, tables or an HTML summary.");
    report->add_option("database", options->database, "results database (from trainscope run)")
        ->required();
    report->add_option("--csv", options->csv_dir,
                       "folder to write runs.csv, kernels.csv, steps.csv, nvtx.csv, ops.csv, "
                       "matrix.csv and memory.csv into (created if missing); columns in "
                       "docs/formats.md");
    report->add_option("--html", options->html_file,
                       "write a self-contained HTML summary (inline SVG charts) to this file");
    report->add_option("--format", options->format,
                       "print one table to stdout as csv, json, markdown or table");
    report->add_option("--table", options->table,
                       "the table --format prints: runs (default), kernels, steps, nvtx, ops, "
                       "matrix, memory");
    report->add_option("--metric", options->pivot.metric,
                       "metric of the matrix pivot (default images_per_s)");
    report->add_option("--rows", options->pivot.rows, "axis of the pivot's rows (default batch)");
    report->add_option("--cols", options->pivot.cols,
                       "axis of the pivot's columns (default precision)");
    report->add_option("--matrix", options->matrix, "only the runs of this matrix id");
    report->add_option("--run", options->runs, "only these run ids")->delimiter(',');
    return [options]() { return execute(*options); };
}

}  // namespace trainscope::harness
