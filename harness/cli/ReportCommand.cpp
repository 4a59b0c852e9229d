#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "harness/cli/Commands.hpp"
#include "harness/cli/UsageError.hpp"
#include "reports/csv/RunsCsv.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope::harness {

namespace {

struct ReportOptions {
    std::string database;
    std::string csv_dir;
    std::optional<std::int64_t> matrix;
    std::vector<std::int64_t> runs;
};

int execute(const ReportOptions& options) {
    const reports::ResultsDatabase db(options.database, reports::OpenMode::ReadOnly);
    reports::RunQuery query{options.matrix, options.runs};
    const auto runs = reports::load_runs(db, query, reports::RunParts{});
    if (options.csv_dir.empty()) {
        throw UsageError("trainscope report: say what to write, e.g. --csv DIR");
    }
    const std::filesystem::path dir(options.csv_dir);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
        throw UsageError(
            fmt::format("cannot create the --csv folder '{}': {} (choose another "
                        "folder)",
                        dir.string(), ec ? ec.message() : "not a folder"));
    }
    const auto runs_csv = dir / "runs.csv";
    reports::write_runs_csv(runs, runs_csv);
    std::printf("%s (%zu run%s)\n", runs_csv.c_str(), runs.size(), runs.size() == 1 ? "" : "s");
    return 0;
}

}  // namespace

CommandAction add_report_command(CLI::App& app) {
    auto options = std::make_shared<ReportOptions>();
    CLI::App* report =
        app.add_subcommand("report", "Export runs of a results database as CSV files.");
    report->add_option("database", options->database, "results database (from trainscope run)")
        ->required();
    report->add_option("--csv", options->csv_dir,
                       "folder to write runs.csv into (created if missing); columns in "
                       "docs/formats.md");
    report->add_option("--matrix", options->matrix, "only the runs of this matrix id");
    report->add_option("--run", options->runs, "only these run ids")->delimiter(',');
    return [options]() { return execute(*options); };
}

}  // namespace trainscope::harness
