#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <memory>

#include "harness/cli/Commands.hpp"
#include "harness/cli/OutputPath.hpp"
#include "harness/cli/UsageError.hpp"
#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/formats/NsysSqliteImporter.hpp"
#include "profiler/formats/TraceFormatError.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/trace/TraceMetrics.hpp"
#include "trainscope/version.hpp"

namespace trainscope::harness {

namespace {

struct ImportOptions {
    std::vector<std::string> files;
    std::string out = "results.db";
    std::string format = "auto";
};

// Sniffs the first bytes: "SQLite format 3" is an Nsight Systems export; gzip or "{"
// is a Kineto JSON trace.
std::string detect_format(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw UsageError(fmt::format("cannot read '{}': check the path", file.string()));
    }
    char head[16] = {};
    in.read(head, sizeof head);
    const std::string start(head, static_cast<std::size_t>(in.gcount()));
    if (start.rfind("SQLite format 3", 0) == 0)
        return "nsys";
    if (start.size() >= 2 && static_cast<unsigned char>(start[0]) == 0x1f &&
        static_cast<unsigned char>(start[1]) == 0x8b) {
        return "kineto";
    }
    const auto first = start.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && (start[first] == '{' || start[first] == '['))
        return "kineto";
    throw UsageError(
        fmt::format("'{}' is neither a PyTorch profiler (Kineto) JSON trace nor an "
                    "Nsight Systems SQLite export (nsys export --type sqlite); give "
                    "--format kineto|nsys if it is one",
                    file.string()));
}

reports::RunRecord import_one(const std::filesystem::path& file, const std::string& format) {
    reports::RunRecord run;
    run.source = format;
    run.trace =
        format == "nsys" ? profiler::import_nsys_sqlite(file) : profiler::import_kineto_trace(file);
    run.cell_key = "import=" + file.filename().string();
    run.axes.model = file.filename().string();
    run.axes.backend = "cuda";
    run.axes.trace_level = "full";
    run.environment["imported_from"] = std::filesystem::absolute(file).string();
    for (const auto& [key, value] : run.trace->metadata)
        run.environment["trace." + key] = value;
    run.metrics = reports::compute_trace_metrics(*run.trace);
    return run;
}

int execute(const ImportOptions& options) {
    check_database_output(options.out, "-o");
    // Read every file before writing anything: a bad file leaves the database untouched.
    std::vector<reports::RunRecord> runs;
    for (const auto& name : options.files) {
        const std::filesystem::path file(name);
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file, ec)) {
            // A FIFO or device would block the read forever or never end.
            throw UsageError(fmt::format(
                "cannot import '{}': it is not a regular file (a FIFO, device or folder); "
                "save the trace to a file first",
                file.string()));
        }
        const std::string format = options.format == "auto" ? detect_format(file) : options.format;
        try {
            runs.push_back(import_one(file, format));
        } catch (const profiler::TraceFormatError& e) {
            throw UsageError(e.what());
        }
    }
    std::error_code ec;
    const bool existed = std::filesystem::exists(options.out, ec);
    try {
        reports::ResultsDatabase db(options.out, reports::OpenMode::CreateOrOpen);
        // The matrix and all its runs in one transaction: a kill leaves neither.
        reports::RunWriter(db).create_matrix_with_runs(
            {"import", "trainscope import", kVersion, kGitRevision}, runs);
    } catch (const reports::SqliteError& e) {
        if (!existed) {
            for (const char* suffix : {"", "-wal", "-shm", "-journal"})
                std::filesystem::remove(options.out + suffix, ec);
        }
        if (!reports::is_disk_full(options.out, e.code()))
            throw;
        throw reports::StoreError(
            fmt::format("cannot write '{}': its disk is full; nothing was imported{} (free some "
                        "space and import again)",
                        options.out, existed ? " and the database is as it was" : ""));
    }
    for (const auto& run : runs) {
        std::printf("run %lld: %s (%s, %zu activities)\n", static_cast<long long>(run.id),
                    run.axes.model.c_str(), run.source.c_str(), run.trace->activities.size());
    }
    std::printf("%s\n", options.out.c_str());
    return 0;
}

}  // namespace

CommandAction add_import_command(CLI::App& app) {
    auto options = std::make_shared<ImportOptions>();
    CLI::App* cmd = app.add_subcommand(
        "import",
        "Import traces recorded elsewhere (PyTorch profiler JSON, plain or .gz; Nsight "
        "Systems SQLite export) as runs, so every analysis and the GUI work on them.");
    cmd->add_option("files", options->files, "trace files")->required()->check(CLI::ExistingFile);
    cmd->add_option("-o,--out", options->out, "results database to create or add to")
        ->capture_default_str();
    cmd->add_option("--format", options->format, "auto | kineto | nsys")
        ->check(CLI::IsMember({"auto", "kineto", "nsys"}))
        ->capture_default_str();
    return [options]() { return execute(*options); };
}

}  // namespace trainscope::harness
