#include "harness/runner/MatrixRunner.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "harness/isolation/ChildCell.hpp"
#include "harness/runner/InterruptGuard.hpp"
#include "harness/runner/RunSummary.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
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
    std::error_code ec;
    if (!std::filesystem::exists(out, ec))
        return std::nullopt;
    const reports::ResultsDatabase db(out, reports::OpenMode::ReadOnly);
    std::optional<std::int64_t> found;
    for (const auto& m : reports::list_matrices(db)) {
        if (same_matrix(m.definition, definition))
            found = m.id;
    }
    return found;
}

MatrixRunResult run_matrix(const MatrixPlan& plan, const MatrixRunOptions& options) {
    MatrixRunResult result;
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
        if (result.matrix_id == 0) {
            result.matrix_id =
                reports::RunWriter(results.db())
                    .create_matrix({plan.name, plan.definition_json, kVersion, kGitRevision});
        }
        record.matrix_id = result.matrix_id;
        const auto old = superseded.find(cell.key());
        record.id = reports::RunWriter(results.db())
                        .replace(record, old != superseded.end() ? old->second
                                                                 : std::vector<std::int64_t>{});
        if (options.progress != ProgressStyle::Quiet)
            print_run_result(record);
        result.runs.push_back(std::move(record));
    }
    return result;
}

}  // namespace trainscope::harness
