#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>

#include "harness/cli/Commands.hpp"
#include "harness/cli/OutputPath.hpp"
#include "harness/cli/UsageError.hpp"
#include "profiler/formats/JobAssembly.hpp"
#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/formats/NsysSqliteImporter.hpp"
#include "profiler/formats/TraceFormatError.hpp"
#include "reports/store/NewFileJournal.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/SqliteError.hpp"
#include "trainscope/version.hpp"

namespace trainscope::harness {

namespace {

struct ImportOptions {
    std::vector<std::string> files;
    std::string out = "results.db";
    std::string format = "auto";
    bool job = false;
    bool allow_partial = false;
    unsigned threads = 0;  // 0: one per core
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

// One file as read, streamed (its activities sorted on disk, written as they pass); one of
// several files also has its joins run on its worker and its activities on disk, ready to
// be a job's rank.
struct ImportedFile {
    std::filesystem::path file;
    std::shared_ptr<profiler::StreamedTrace> streamed;

    [[nodiscard]] const profiler::Trace& header() const { return streamed->header; }
};

// One file read alone parses its events on this many threads at most (one per core up
// to it): beyond three the builder, one thread, would set the pace (inferred from the
// per-thread CPU of a 1 GB import on two cores, docs/performance.md; not measured with
// more cores).
constexpr unsigned kMaxParseThreads = 3;

ImportedFile import_trace(const std::filesystem::path& file, const std::string& format,
                          bool one_of_several, unsigned parse_threads) {
    profiler::StreamOptions options;
    if (one_of_several)
        options.one_run = profiler::ActivitySorter::OneRun::OnDisk;
    options.parse_threads = parse_threads;
    ImportedFile out{file, std::make_shared<profiler::StreamedTrace>(
                               format == "nsys" ? profiler::stream_nsys_sqlite(file, options)
                                                : profiler::stream_kineto_trace(file, options))};
    if (one_of_several)
        profiler::complete_header(*out.streamed);
    return out;
}

reports::RunRecord run_of(const std::string& format, const std::string& name,
                          const std::vector<std::filesystem::path>& from,
                          const profiler::Trace& header) {
    reports::RunRecord run;
    run.source = format;
    run.cell_key = "import=" + name;
    run.axes.model = name;
    run.axes.backend = "cuda";
    run.axes.trace_level = "full";
    std::string sources;
    for (const auto& file : from)
        sources += (sources.empty() ? "" : "\n") + std::filesystem::absolute(file).string();
    run.environment["imported_from"] = sources;
    for (const auto& [key, value] : header.metadata)
        run.environment["trace." + key] = value;
    return run;
}

reports::RunRecord run_of(ImportedFile imported, const std::string& format) {
    const std::string name = imported.file.filename().string();
    reports::RunRecord run = run_of(format, name, {imported.file}, imported.header());
    run.streamed_trace = std::move(imported.streamed);  // its metrics come as it is written
    return run;
}

bool is_trace_file_name(const std::filesystem::path& file) {
    const std::string name = file.filename().string();
    const auto ends = [&name](std::string_view tail) {
        return name.size() >= tail.size() &&
               name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
    };
    return ends(".json") || ends(".json.gz") || ends(".sqlite");
}

// A folder stands for the trace files in it (*.json, *.json.gz, *.sqlite), by name.
std::vector<std::filesystem::path> expand(const std::vector<std::string>& names, bool& had_folder) {
    std::vector<std::filesystem::path> files;
    for (const auto& name : names) {
        const std::filesystem::path path(name);
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) {
            had_folder = true;
            std::vector<std::filesystem::path> inside;
            for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
                if (entry.is_regular_file(ec) && is_trace_file_name(entry.path()))
                    inside.push_back(entry.path());
            }
            if (inside.empty()) {
                throw UsageError(fmt::format(
                    "'{}' holds no trace files (*.json, *.json.gz, *.sqlite): give the folder "
                    "of the job's traces or the files themselves",
                    name));
            }
            std::sort(inside.begin(), inside.end());
            files.insert(files.end(), inside.begin(), inside.end());
            continue;
        }
        if (!std::filesystem::is_regular_file(path, ec)) {
            // A FIFO or device would block the read forever or never end.
            throw UsageError(fmt::format(
                "cannot import '{}': it is not a regular file (a FIFO, device or folder); "
                "save the trace to a file first",
                name));
        }
        files.push_back(path);
    }
    return files;
}

// A job's files are independent: parse them on every core (each worker takes the next
// file), keeping the order given. The first file's error (in that order) is reported.
std::vector<ImportedFile> import_all(const std::vector<std::filesystem::path>& files,
                                     const std::vector<std::string>& formats,
                                     unsigned max_workers) {
    std::vector<ImportedFile> traces(files.size());
    std::vector<std::exception_ptr> errors(files.size());
    const unsigned cores =
        std::max(1u, max_workers != 0 ? max_workers : std::thread::hardware_concurrency());
    // Several files: one worker per file up to one per core, each reading its file on one
    // thread. One file: its events parsed on up to one thread per core instead.
    const unsigned parse_threads = files.size() == 1 ? std::min(cores, kMaxParseThreads) : 1;
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t i = next++; i < files.size(); i = next++) {
            try {
                traces[i] = import_trace(files[i], formats[i], files.size() > 1, parse_threads);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    const std::size_t workers = std::min<std::size_t>(files.size(), cores);
    std::vector<std::thread> threads;
    for (std::size_t w = 1; w < workers; ++w)
        threads.emplace_back(work);
    work();
    for (auto& t : threads)
        t.join();
    for (const auto& error : errors) {
        if (!error)
            continue;
        try {
            std::rethrow_exception(error);
        } catch (const profiler::TraceFormatError& e) {
            throw UsageError(e.what());
        }
    }
    return traces;
}

bool all_name_their_rank(const std::vector<ImportedFile>& traces) {
    const bool info = std::all_of(traces.begin(), traces.end(), [](const auto& t) {
        return t.header().metadata.count("distributed.rank") != 0;
    });
    const bool names = std::all_of(traces.begin(), traces.end(), [](const auto& t) {
        return profiler::rank_from_file_name(t.file) >= 0;
    });
    return info || names;
}

void print_job(const profiler::JobLayout& job) {
    std::printf("  job of %d ranks%s, %zu present; ranks from the files' %s\n", job.world_size,
                job.backend.empty() ? "" : fmt::format(" ({})", job.backend).c_str(),
                job.ranks.size(), std::string(to_string(job.ranks.front().source)).c_str());
    for (const auto& r : job.ranks) {
        std::printf("  rank %d: %s (first event at +%.3f ms)\n", r.rank,
                    r.file.filename().string().c_str(),
                    static_cast<double>(r.start_offset_ns) * 1e-6);
    }
    std::printf("  start spread across ranks: %.3f ms (each file's own clock, not aligned)\n",
                static_cast<double>(job.start_spread_ns) * 1e-6);
}

// A job's ranks as one run, streamed: the job's header is assembled from the ranks', and
// their activities pass from their sorted runs one rank after another while the run is
// written.
reports::RunRecord import_job(std::vector<ImportedFile> traces,
                              const profiler::JobAssemblyOptions& options,
                              const std::string& format, const std::string& name,
                              const std::vector<std::filesystem::path>& files,
                              std::optional<profiler::JobLayout>& layout) {
    std::vector<profiler::RankStreamedFile> ranks;
    for (ImportedFile& t : traces)
        ranks.push_back({t.file, std::move(*t.streamed)});
    traces.clear();
    profiler::StreamedJobAssembly job = profiler::assemble_streamed_job(std::move(ranks), options);
    layout = std::move(static_cast<profiler::JobLayout&>(job));  // the trace stays in job
    reports::RunRecord run = run_of(format, name, files, job.trace.header);
    run.streamed_trace = std::make_shared<profiler::StreamedTrace>(std::move(job.trace));
    return run;
}

int execute(const ImportOptions& options) {
    check_database_output(options.out, "-o");
    // Read every file before writing anything: a bad file leaves the database untouched.
    bool had_folder = false;
    const std::vector<std::filesystem::path> files = expand(options.files, had_folder);
    std::vector<std::string> formats;
    for (const auto& file : files)
        formats.push_back(options.format == "auto" ? detect_format(file) : options.format);
    std::vector<ImportedFile> traces = import_all(files, formats, options.threads);
    // The ranks of one job become one run: asked for, a folder, or files that say so.
    const bool as_job =
        options.job || had_folder || (traces.size() > 1 && all_name_their_rank(traces));
    std::vector<reports::RunRecord> runs;
    std::optional<profiler::JobLayout> job;
    if (as_job) {
        const std::string name =
            had_folder && options.files.size() == 1
                ? std::filesystem::path(options.files.front()).filename().string()
                : files.front().filename().string();
        profiler::JobAssemblyOptions job_options;
        job_options.allow_partial = options.allow_partial;
        try {
            runs.push_back(
                import_job(std::move(traces), job_options, formats.front(), name, files, job));
        } catch (const profiler::JobAssemblyError& e) {
            throw UsageError(e.what());
        }
    } else {
        for (std::size_t i = 0; i < traces.size(); ++i)
            runs.push_back(run_of(std::move(traces[i]), formats[i]));
    }
    std::error_code ec;
    const bool existed = std::filesystem::exists(options.out, ec);
    // Whatever stops the write (SQLite, or the metrics' temporary file in a full or
    // unwritable $TMPDIR) leaves no file of this import's making behind.
    const auto remove_created = [&] {
        if (!existed) {
            for (const char* suffix : {"", "-wal", "-shm", "-journal"})
                std::filesystem::remove(options.out + suffix, ec);
        }
    };
    try {
        reports::ResultsDatabase db(options.out, reports::OpenMode::CreateOrOpen);
        reports::NewFileJournal journal(db);
        // The matrix and all its runs in one transaction: a kill leaves neither.
        reports::RunWriter(db).create_matrix_with_runs(
            {"import", "trainscope import", kVersion, kGitRevision}, runs);
        journal.done();
    } catch (const reports::SqliteError& e) {
        remove_created();
        if (!reports::is_disk_full(options.out, e.code()))
            throw;
        throw reports::StoreError(
            fmt::format("cannot write '{}': its disk is full; nothing was imported{} (free some "
                        "space and import again)",
                        options.out, existed ? " and the database is as it was" : ""));
    } catch (...) {
        remove_created();
        throw;
    }
    for (const auto& run : runs) {
        std::printf("run %lld: %s (%s, %lld activities)\n", static_cast<long long>(run.id),
                    run.axes.model.c_str(), run.source.c_str(),
                    static_cast<long long>(run.streamed_trace->activity_count));
    }
    if (job)
        print_job(*job);
    std::printf("%s\n", options.out.c_str());
    return 0;
}

}  // namespace

CommandAction add_import_command(CLI::App& app) {
    auto options = std::make_shared<ImportOptions>();
    CLI::App* cmd = app.add_subcommand(
        "import",
        "Import traces recorded elsewhere (PyTorch profiler JSON, plain or .gz; Nsight "
        "Systems SQLite export) as runs, so every analysis and the GUI work on them. The "
        "traces of a distributed job's ranks (a folder, or files carrying distributedInfo "
        "or rank-N / workerN names) become one run with all ranks.");
    cmd->add_option("files", options->files,
                    "trace files, or a folder of one job's traces (one file per rank)")
        ->required()
        ->check(CLI::ExistingPath);
    cmd->add_option("-o,--out", options->out, "results database to create or add to")
        ->capture_default_str();
    cmd->add_option("--format", options->format, "auto | kineto | nsys")
        ->check(CLI::IsMember({"auto", "kineto", "nsys"}))
        ->capture_default_str();
    cmd->add_flag("--job", options->job,
                  "the files are the ranks of one distributed job: import them as one run "
                  "(the default for a folder, and for files that name their rank)");
    cmd->add_flag("--allow-partial", options->allow_partial,
                  "import a job whose traces do not cover every rank of its world size");
    cmd->add_option("--threads", options->threads,
                    "files read at once (one per core by default), or for one file the "
                    "threads that parse it (at most 3); the database is the same for any "
                    "number")
        ->check(CLI::Range(1u, 1024u));
    return [options]() { return execute(*options); };
}

}  // namespace trainscope::harness
