#include "harness/runner/MatrixRunner.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>

#include "harness/isolation/ChildCell.hpp"
#include "harness/isolation/ScratchDir.hpp"
#include "harness/runner/InterruptGuard.hpp"
#include "harness/runner/ResultsFileLock.hpp"
#include "harness/runner/RunSummary.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/SqliteError.hpp"
#include "trainscope/version.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::harness {

namespace {

// The results database, opened on first use so that bad input in the first cell leaves
// no file behind.
class LazyResults {
  public:
    explicit LazyResults(std::filesystem::path path) : path_(std::move(path)) {}
    [[nodiscard]] bool is_open() const { return db_ != nullptr; }
    reports::ResultsDatabase& db() {
        if (!db_)
            db_ =
                std::make_unique<reports::ResultsDatabase>(path_, reports::OpenMode::CreateOrOpen);
        return *db_;
    }

  private:
    std::filesystem::path path_;
    std::unique_ptr<reports::ResultsDatabase> db_;
};

}  // namespace

std::optional<std::int64_t> find_resumable_matrix(const std::filesystem::path& out,
                                                  const std::string& definition) {
    // Missing, or the empty file this run's lock just created: nothing to resume.
    std::error_code ec;
    if (!std::filesystem::exists(out, ec) || std::filesystem::file_size(out, ec) == 0)
        return std::nullopt;
    const reports::ResultsDatabase db(out, reports::OpenMode::ReadOnly);
    std::optional<std::int64_t> found;
    for (const auto& m : reports::list_matrices(db)) {
        if (same_matrix(m.definition, definition))
            found = m.id;
    }
    return found;
}

namespace {

// A cell's result that the results database could not take (its disk is full): written to
// a database of its own in $TMPDIR, where there may be room, and named; "" if not there
// either.
std::string keep_elsewhere(const reports::RunRecord& record) {
    std::error_code ec;
    std::string pattern =
        (std::filesystem::temp_directory_path(ec) / "trainscope-unrecorded-XXXXXX.db").string();
    const int fd = mkstemps(pattern.data(), 3);
    if (fd < 0)
        return "";
    close(fd);
    try {
        reports::ResultsDatabase db(pattern, reports::OpenMode::CreateOrOpen);
        reports::RunWriter(db).write(record);
        return pattern;
    } catch (const std::exception&) {
        std::filesystem::remove(pattern, ec);
        return "";
    }
}

[[noreturn]] void stop_for_full_disk(const std::filesystem::path& out, const Cell& cell,
                                     const std::string& label, reports::RunRecord record,
                                     std::size_t recorded) {
    record.matrix_id.reset();
    const std::string kept = keep_elsewhere(record);
    throw reports::StoreError(fmt::format(
        "the disk holding '{}' is full: the cell {} trained, but its result could not be "
        "recorded there ({}); the matrix stops, and the {} run{} recorded before are kept. "
        "Free some space, then continue with the same command and --resume",
        out.string(), label.empty() ? cell.key() : label,
        kept.empty()
            ? "and is lost"
            : fmt::format("it is kept in {}: trainscope report {} --format table", kept, kept),
        recorded, recorded == 1 ? "" : "s"));
}

}  // namespace

MatrixRunResult run_matrix(const MatrixPlan& plan, const MatrixRunOptions& options) {
    MatrixRunResult result;
    ResultsFileLock lock(options.out, plan.definition_json);
    ScratchDir::remove_stale();
    LazyResults results(options.out);
    std::map<std::string, std::vector<std::int64_t>> superseded;  // cell key -> old run ids
    std::set<std::string> done;
    if (options.resume) {
        if (const auto id = find_resumable_matrix(options.out, plan.definition_json)) {
            result.matrix_id = *id;
            for (const auto& row : reports::cell_runs(results.db(), *id)) {
                if (row.status == reports::RunStatus::Ok) {
                    done.insert(row.cell_key);
                } else {
                    superseded[row.cell_key].push_back(row.run_id);
                }
            }
            for (const auto& cell : plan.cells)
                result.already_done += done.count(cell.key());
            if (options.progress != ProgressStyle::Quiet) {
                std::fprintf(stderr,
                             "trainscope: resuming matrix %lld: %zu of %zu cells already done\n",
                             static_cast<long long>(*id), result.already_done, plan.cells.size());
            }
        } else if (options.progress != ProgressStyle::Quiet) {
            std::fprintf(stderr,
                         "trainscope: --resume: no earlier run of this matrix in %s; starting it\n",
                         options.out.c_str());
        }
    }

    InterruptGuard interrupt;
    const int count = static_cast<int>(plan.cells.size());
    for (int i = 0; i < count; ++i) {
        const Cell& cell = plan.cells[static_cast<std::size_t>(i)];
        if (done.count(cell.key()) != 0)
            continue;
        if (interrupt.interrupted()) {
            result.interrupted = true;
            break;
        }
        CellJob job{cell,
                    plan.length,
                    plan.stopping,
                    plan.fault,
                    options.progress,
                    i + 1,
                    count,
                    cell_label(cell, plan.varying_axes)};
        ChildOutcome outcome = run_cell_in_child(job, plan.timeout, interrupt.flag());
        if (outcome.end == ChildOutcome::End::Interrupted) {
            result.interrupted = true;
            break;
        }
        reports::RunRecord record = std::move(outcome.record);
        if (outcome.end == ChildOutcome::End::ConfigError) {
            if (!results.is_open())
                throw workloads::ConfigError(outcome.config_error);
            record.status = reports::RunStatus::Failed;
            record.error = outcome.config_error;
        }
        record.cell_key = cell.key();
        record.axes = make_run_axes(cell, plan.length);
        const auto old = superseded.find(cell.key());
        try {
            reports::RunWriter writer(results.db());
            if (result.matrix_id == 0) {
                // The matrix row and its first run in one transaction: a kill between the
                // two never leaves an empty matrix.
                result.matrix_id = writer.create_matrix_with_runs(
                    {plan.name, plan.definition_json, kVersion, kGitRevision}, {&record, 1});
            } else {
                record.matrix_id = result.matrix_id;
                record.id = writer.replace(
                    record, old != superseded.end() ? old->second : std::vector<std::int64_t>{});
            }
        } catch (const reports::SqliteError& e) {
            if (!reports::is_disk_full(options.out, e.code()))
                throw;
            stop_for_full_disk(options.out, cell, job.label, std::move(record), result.runs.size());
        }
        lock.keep_file();
        if (options.progress != ProgressStyle::Quiet)
            print_run_result(record);
        result.runs.push_back(std::move(record));
    }
    return result;
}

}  // namespace trainscope::harness
