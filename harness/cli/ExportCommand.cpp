#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>

#include "harness/cli/Commands.hpp"
#include "harness/cli/OutputPath.hpp"
#include "harness/cli/RunTraceLoader.hpp"
#include "harness/cli/UsageError.hpp"
#include "profiler/formats/OutputFile.hpp"
#include "profiler/sqlite/SqliteReadSnapshot.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/trace/StoredChromeTrace.hpp"

namespace trainscope::harness {

namespace {

struct ExportOptions {
    std::string database;
    std::int64_t run = 0;
    std::string format = "chrome";
    std::string out;
};

int execute(const ExportOptions& options) {
    check_file_output(options.out, "-o");
    const reports::ResultsDatabase db(options.database, reports::OpenMode::ReadOnly);
    // The header, the rows and their flows from one state of the file, whatever another
    // process commits meanwhile (a resumed matrix replacing this run).
    const profiler::SqliteReadSnapshot snapshot(db);
    const profiler::Trace header = load_run_trace_header(db, options.database, options.run);
    // The run's rows pass into the file one at a time: a run of millions of activities is
    // never held (reports::write_stored_chrome_trace).
    profiler::AtomicOutputFile out(options.out);
    const std::int64_t activities =
        reports::write_stored_chrome_trace(db, options.run, header, out.stream());
    out.commit();
    std::printf("%s (%lld activities; open it in Perfetto, ui.perfetto.dev)\n", options.out.c_str(),
                static_cast<long long>(activities));
    return 0;
}

}  // namespace

CommandAction add_export_command(CLI::App& app) {
    auto options = std::make_shared<ExportOptions>();
    CLI::App* cmd =
        app.add_subcommand("export", "Export a run's trace (Chrome trace JSON for Perfetto).");
    cmd->add_option("database", options->database, "results database")->required();
    cmd->add_option("--run", options->run, "run id")->required();
    cmd->add_option("--format", options->format, "chrome")
        ->check(CLI::IsMember({"chrome"}))
        ->capture_default_str();
    cmd->add_option("-o,--out", options->out, "file to write, e.g. trace.json")->required();
    return [options]() { return execute(*options); };
}

}  // namespace trainscope::harness
