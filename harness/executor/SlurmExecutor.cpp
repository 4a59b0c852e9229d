#include "harness/executor/SlurmExecutor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <thread>

#include "harness/executor/CellStates.hpp"
#include "harness/executor/Collector.hpp"
#include "harness/executor/ResultsFolder.hpp"
#include "harness/isolation/CellJob.hpp"
#include "harness/runner/InterruptGuard.hpp"
#include "harness/runner/RunSummary.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "trainscope/version.hpp"

namespace trainscope::harness {

namespace {

std::filesystem::path self_executable() {
    return std::filesystem::read_symlink("/proc/self/exe");
}

// Cells already done, or still queued or running from an earlier submission: a resume
// leaves them alone.
std::set<std::string> cells_not_to_submit(const std::filesystem::path& out, std::int64_t matrix_id,
                                          const SlurmClient& slurm, std::size_t& done) {
    std::set<std::string> keys;
    const reports::ResultsDatabase db(out, reports::OpenMode::ReadOnly);
    for (const auto& s : matrix_cell_states(db, matrix_id, matrix_folder(out, matrix_id), &slurm)) {
        if (s.state == CellState::Done || s.state == CellState::Pending ||
            s.state == CellState::Running)
            keys.insert(s.cell_key);
        done += s.state == CellState::Done ? 1 : 0;
    }
    return keys;
}

struct Counts {
    std::size_t pending = 0, running = 0, done = 0, failed = 0;
    [[nodiscard]] bool active() const { return pending + running > 0; }
};

Counts count_states(const Submission& submission, const SlurmClient& slurm) {
    Counts c;
    for (const auto& [key, attempt] : latest_attempts({submission}, &slurm)) {
        switch (cell_status(key, nullptr, &attempt).state) {
            case CellState::Pending:
                ++c.pending;
                break;
            case CellState::Running:
                ++c.running;
                break;
            case CellState::Done:
                ++c.done;
                break;
            case CellState::Failed:
            case CellState::Missing:
                ++c.failed;
                break;
        }
    }
    return c;
}

// Follows the array until no task is pending or running; false when Ctrl-C stopped it.
bool follow(const Submission& submission, const SlurmClient& slurm, bool quiet) {
    InterruptGuard interrupt;
    std::string last;
    const auto started = std::chrono::steady_clock::now();
    for (;;) {
        const Counts c = count_states(submission, slurm);
        const std::string line = fmt::format(
            "slurm job {}: {} pending, {} running, {} done, {} failed (of {})", submission.job_id,
            c.pending, c.running, c.done, c.failed, submission.cell_keys.size());
        if (!quiet && line != last)
            std::fprintf(stderr, "%s\n", line.c_str());
        last = line;
        if (!c.active())
            return true;
        // Ask often at first (short cells, tests), then no more than every 10 s: squeue
        // is a call to the cluster's controller.
        const auto waited = std::chrono::steady_clock::now() - started;
        const auto pause = std::min<std::chrono::milliseconds>(
            std::chrono::milliseconds(500) +
                std::chrono::duration_cast<std::chrono::milliseconds>(waited) / 30,
            std::chrono::seconds(10));
        for (auto slept = std::chrono::milliseconds(0); slept < pause;
             slept += std::chrono::milliseconds(100)) {
            if (interrupt.interrupted())
                return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
}

}  // namespace

SlurmExecutor::SlurmExecutor(ExecutorSettings settings) : settings_(std::move(settings)) {}

MatrixRunResult SlurmExecutor::run(const MatrixPlan& plan, const MatrixRunOptions& options) {
    const bool quiet = options.progress == ProgressStyle::Quiet;
    const std::filesystem::path out = std::filesystem::absolute(options.out);
    MatrixRunResult result;
    std::error_code ec;
    const bool new_database = !std::filesystem::exists(out, ec);
    std::set<std::string> leave;
    if (options.resume) {
        if (const auto id = find_resumable_matrix(out, plan.definition_json)) {
            result.matrix_id = *id;
            // What finished since the last look goes in first, so it is not run again.
            result.runs = collect_results(out, &slurm_, *id).added;
            leave = cells_not_to_submit(out, *id, slurm_, result.already_done);
            if (!quiet) {
                std::fprintf(stderr,
                             "trainscope: resuming matrix %lld: %zu of %zu cells done, %zu "
                             "queued or running\n",
                             static_cast<long long>(*id), result.already_done, plan.cells.size(),
                             leave.size() - result.already_done);
            }
        } else if (!quiet) {
            std::fprintf(stderr,
                         "trainscope: --resume: no earlier run of this matrix in %s; starting it\n",
                         out.c_str());
        }
    }
    std::vector<const Cell*> todo;
    for (const auto& cell : plan.cells) {
        if (leave.count(cell.key()) == 0)
            todo.push_back(&cell);
    }
    if (todo.empty()) {
        std::fprintf(stderr,
                     "trainscope: nothing to submit: every cell of matrix %lld has a result or is "
                     "queued in Slurm\n",
                     static_cast<long long>(result.matrix_id));
        result.detached = true;
        return result;
    }

    if (result.matrix_id == 0) {
        const reports::ResultsDatabase db(out, reports::OpenMode::CreateOrOpen);
        result.matrix_id = reports::RunWriter(db).create_matrix(
            {plan.name, plan.definition_json, kVersion, kGitRevision});
    }
    Submission submission;
    const int count = static_cast<int>(todo.size());
    try {
        submission = new_submission(matrix_folder(out, result.matrix_id));
        submission.time_per_cell = settings_.time_per_cell;
        submission.timeout_s = static_cast<long>(plan.timeout.count());
        for (int i = 0; i < count; ++i) {
            const Cell& cell = *todo[static_cast<std::size_t>(i)];
            const CellJob job{cell,
                              plan.length,
                              plan.stopping,
                              plan.fault,
                              ProgressStyle::Lines,
                              i + 1,
                              count,
                              cell_label(cell, plan.varying_axes)};
            write_cell_job(job, submission.task_file(i));
            submission.cell_keys.push_back(cell.key());
        }
        write_submission(submission);

        int tasks_per_cell = 1;
        for (const Cell* cell : todo) {
            if (const auto it = cell->values.find("ranks"); it != cell->values.end())
                tasks_per_cell = std::max(tasks_per_cell, std::stoi(it->second));
        }
        const ArraySubmission array{
            count,
            "trainscope-" + plan.name,
            submission.dir / "log-%A_%a.out",
            plan.length.threads,
            tasks_per_cell,
            fmt::format("exec {} __slurm-task {}", shell_quote(self_executable().string()),
                        shell_quote(submission.dir.string())),
            settings_};
        submission.job_id = slurm_.submit(array);
    } catch (...) {
        // Nothing was queued until sbatch answered: a failure before it (writing the cell
        // jobs) or in it leaves nothing behind that says otherwise.
        if (!submission.dir.empty())
            std::filesystem::remove_all(submission.dir, ec);
        if (new_database) {
            std::filesystem::remove_all(slurm_root(out), ec);
            for (const char* suffix : {"", "-wal", "-shm"})
                std::filesystem::remove(out.string() + suffix, ec);
        }
        throw;
    }
    write_submission(submission);
    if (!quiet) {
        std::fprintf(stderr,
                     "trainscope: submitted Slurm job array %s: %d cell%s%s; results land in %s\n",
                     submission.job_id.c_str(), count, count == 1 ? "" : "s",
                     settings_.max_parallel > 0
                         ? fmt::format(", at most {} at once", settings_.max_parallel).c_str()
                         : "",
                     submission.dir.c_str());
    }
    const bool followed = settings_.wait && follow(submission, slurm_, quiet);
    if (!followed) {
        std::fprintf(stderr,
                     "trainscope: job %s runs on in Slurm; see 'trainscope status %s', then "
                     "merge its results with 'trainscope collect %s'\n",
                     submission.job_id.c_str(), options.out.c_str(), options.out.c_str());
        // Ctrl-C stops the following, not the job: exit 130 like the local executor.
        result.interrupted = settings_.wait;
        result.detached = !settings_.wait;
        return result;
    }
    auto collected = collect_results(out, &slurm_, result.matrix_id);
    for (auto& run : collected.added) {
        if (!quiet)
            print_run_result(run);
        result.runs.push_back(std::move(run));
    }
    result.waiting = collected.waiting;
    if (collected.waiting > 0) {
        std::fprintf(stderr,
                     "trainscope: job %s: %zu cell%s ended with neither a result nor a reason "
                     "from Slurm (see 'trainscope status %s' and the task logs in %s); "
                     "'trainscope run ... --resume' runs them again\n",
                     submission.job_id.c_str(), collected.waiting,
                     collected.waiting == 1 ? "" : "s", options.out.c_str(),
                     submission.dir.c_str());
    }
    return result;
}

}  // namespace trainscope::harness
