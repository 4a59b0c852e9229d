#include "harness/executor/Collector.hpp"

#include "harness/executor/CellStates.hpp"
#include "harness/executor/ResultsFolder.hpp"
#include "harness/executor/SlurmTask.hpp"
#include "harness/isolation/CellJob.hpp"
#include "harness/runner/CellConfig.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"

namespace trainscope::harness {

namespace {

// The run an attempt leaves: its result file, or a failure in Slurm's words when the
// task ended without one; nullopt while it has not ended.
std::optional<reports::RunRecord> attempt_run(const TaskAttempt& attempt) {
    if (attempt.result_status) {
        const reports::ResultsDatabase file(attempt.submission.result_file(attempt.index),
                                            reports::OpenMode::ReadOnly);
        auto runs = reports::load_runs(file, {}, reports::RunParts{true, true, true, true, true});
        if (runs.size() == 1)
            return std::move(runs.front());
        return std::nullopt;
    }
    if (!attempt.slurm || !has_ended(attempt.slurm->state))
        return std::nullopt;
    const CellJob job = read_cell_job(attempt.submission.task_file(attempt.index));
    reports::RunRecord run;
    run.cell_key = job.cell.key();
    run.axes = make_run_axes(job.cell, job.length);
    run.status = reports::RunStatus::Failed;
    run.error = slurm_failure_text(*attempt.slurm, attempt.submission.time_per_cell);
    run.environment[kEnvSlurmJob] = attempt.submission.job_id;
    run.environment[kEnvSlurmTask] = std::to_string(attempt.index);
    run.environment[kEnvSlurmNode] = attempt.slurm->node;
    run.environment["slurm_state"] = attempt.slurm->state_text;
    return run;
}

}  // namespace

CollectResult collect_results(const std::filesystem::path& out, const SlurmClient* slurm,
                              std::optional<std::int64_t> matrix_id) {
    CollectResult result;
    const reports::ResultsDatabase db(out, reports::OpenMode::CreateOrOpen);
    // The files and Slurm first: they need no lock, and squeue can be slow.
    std::vector<std::pair<std::int64_t, std::map<std::string, TaskAttempt>>> found;
    for (const auto& [id, folder] : slurm_matrices(out)) {
        if (!matrix_id || *matrix_id == id)
            found.emplace_back(id, latest_attempts(read_submissions(folder), slurm));
    }
    // What is recorded is read under the write lock it is written under: two collects at
    // once would otherwise both see a cell missing and both record it.
    reports::Transaction tx(db);
    std::vector<reports::RunWriter::Replacement> replacements;
    for (const auto& [id, attempts] : found) {
        const auto recorded = recorded_runs(db, id);
        for (const auto& [key, attempt] : attempts) {
            const auto it = recorded.find(key);
            std::vector<std::int64_t> superseded;
            bool in = false;
            if (it != recorded.end()) {
                for (const auto& run : it->second) {
                    superseded.push_back(run.run_id);
                    in = in || run.status != reports::RunStatus::Failed ||
                         run.attempt == attempt_id(attempt.submission.job_id, attempt.index);
                }
            }
            if (in) {
                ++result.already;
                continue;
            }
            auto run = attempt_run(attempt);
            if (!run) {
                ++result.waiting;
                continue;
            }
            run->id = 0;
            run->matrix_id = id;
            replacements.push_back({std::move(*run), std::move(superseded)});
        }
    }
    if (replacements.empty())
        return result;
    const auto ids = reports::RunWriter(db).replace_all(replacements);
    tx.commit();
    for (std::size_t i = 0; i < ids.size(); ++i) {
        replacements[i].run.id = ids[i];
        result.added.push_back(std::move(replacements[i].run));
    }
    return result;
}

}  // namespace trainscope::harness
