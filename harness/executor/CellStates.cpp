#include "harness/executor/CellStates.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <set>

#include "harness/executor/SlurmTask.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope::harness {

namespace {

// The run a result file holds: its status and error, nothing more.
std::optional<reports::RunRecord> read_result_head(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return std::nullopt;
    const reports::ResultsDatabase db(file, reports::OpenMode::ReadOnly);
    auto runs = reports::load_runs(db, {}, reports::RunParts{false, false, false, false, false});
    if (runs.size() != 1)
        return std::nullopt;
    return std::move(runs.front());
}

}  // namespace

std::string attempt_id(const std::string& job_id, int index) {
    return fmt::format("{}_{}", job_id, index);
}

std::map<std::string, TaskAttempt> latest_attempts(const std::vector<Submission>& submissions,
                                                   const SlurmClient* slurm) {
    std::map<std::string, TaskAttempt> latest;
    for (const auto& submission : submissions) {
        for (std::size_t i = 0; i < submission.cell_keys.size(); ++i) {
            TaskAttempt attempt{submission, static_cast<int>(i), std::nullopt, "", std::nullopt};
            if (const auto head = read_result_head(submission.result_file(attempt.index))) {
                attempt.result_status = head->status;
                attempt.result_error = head->error;
            }
            latest.insert_or_assign(submission.cell_keys[i], std::move(attempt));
        }
    }
    std::map<std::string, std::vector<TaskAttempt*>> to_ask;  // job id -> attempts
    for (auto& [key, attempt] : latest) {
        if (!attempt.result_status && !attempt.submission.job_id.empty())
            to_ask[attempt.submission.job_id].push_back(&attempt);
    }
    for (auto& [job_id, attempts] : to_ask) {
        const auto tasks =
            slurm != nullptr
                ? slurm->tasks(job_id,
                               static_cast<int>(attempts.front()->submission.cell_keys.size()))
                : std::vector<SlurmTask>{};
        for (TaskAttempt* attempt : attempts) {
            for (const auto& task : tasks) {
                if (task.job_id == job_id && task.index == attempt->index)
                    attempt->slurm = task;
            }
            if (!attempt->slurm) {
                attempt->slurm = read_failure_marker(attempt->submission, attempt->index);
                continue;
            }
            if (!has_ended(attempt->slurm->state))
                continue;
            // The task may have written its result since the folder was read.
            if (const auto head =
                    read_result_head(attempt->submission.result_file(attempt->index))) {
                attempt->result_status = head->status;
                attempt->result_error = head->error;
            } else {
                write_failure_marker(attempt->submission, *attempt->slurm);
            }
        }
    }
    return latest;
}

std::map<std::string, std::vector<RecordedRun>> recorded_runs(const reports::ResultsDatabase& db,
                                                              std::int64_t matrix_id) {
    std::map<std::string, std::vector<RecordedRun>> runs;
    for (const auto& run : reports::load_runs(
             db, {matrix_id, {}}, reports::RunParts{false, true, false, false, false})) {
        RecordedRun r{run.id, run.status, run.error, ""};
        const auto job = run.environment.find(kEnvSlurmJob);
        const auto task = run.environment.find(kEnvSlurmTask);
        if (job != run.environment.end() && task != run.environment.end())
            r.attempt = job->second + "_" + task->second;
        runs[run.cell_key].push_back(std::move(r));
    }
    return runs;
}

std::string_view to_string(CellState state) {
    switch (state) {
        case CellState::Pending:
            return "pending";
        case CellState::Running:
            return "running";
        case CellState::Done:
            return "done";
        case CellState::Failed:
            return "failed";
        case CellState::Missing:
            break;
    }
    return "missing";
}

CellStatus cell_status(const std::string& cell_key, const std::vector<RecordedRun>* recorded,
                       const TaskAttempt* attempt) {
    CellStatus status{cell_key, CellState::Missing, "", "", ""};
    const RecordedRun* last =
        recorded != nullptr && !recorded->empty() ? &recorded->back() : nullptr;
    if (recorded != nullptr) {
        for (const auto& run : *recorded) {
            if (run.status != reports::RunStatus::Failed) {
                status.state = CellState::Done;
                if (run.status == reports::RunStatus::Skipped)
                    status.detail = "skipped: " + run.error;
                return status;
            }
        }
    }
    if (attempt != nullptr) {
        if (attempt->result_status) {
            const bool failed = *attempt->result_status == reports::RunStatus::Failed;
            status.state = failed ? CellState::Failed : CellState::Done;
            status.detail = attempt->result_error;
            return status;
        }
        if (attempt->slurm) {
            const SlurmTask& task = *attempt->slurm;
            status.node = task.node;
            status.elapsed = task.elapsed;
            if (task.state == SlurmState::Pending) {
                status.state = CellState::Pending;
                status.detail = task.reason;
            } else if (task.state == SlurmState::Running) {
                status.state = CellState::Running;
            } else {
                status.state = CellState::Failed;
                status.detail = slurm_failure_text(task, attempt->submission.time_per_cell);
            }
            return status;
        }
    }
    if (last != nullptr) {
        status.state = CellState::Failed;
        status.detail = last->error;
    }
    return status;
}

std::vector<std::string> matrix_cell_keys(const reports::ResultsDatabase& db,
                                          std::int64_t matrix_id) {
    for (const auto& m : reports::list_matrices(db)) {
        if (m.id != matrix_id)
            continue;
        const auto j = nlohmann::json::parse(m.definition, nullptr, false);
        if (j.is_object() && j.contains("cells"))
            return j.at("cells").get<std::vector<std::string>>();
    }
    return {};
}

std::vector<CellStatus> matrix_cell_states(const reports::ResultsDatabase& db,
                                           std::int64_t matrix_id,
                                           const std::filesystem::path& matrix_dir,
                                           const SlurmClient* slurm) {
    const auto attempts = latest_attempts(read_submissions(matrix_dir), slurm);
    const auto recorded = recorded_runs(db, matrix_id);
    std::vector<CellStatus> states;
    for (const auto& key : matrix_cell_keys(db, matrix_id)) {
        const auto r = recorded.find(key);
        const auto a = attempts.find(key);
        states.push_back(cell_status(key, r != recorded.end() ? &r->second : nullptr,
                                     a != attempts.end() ? &a->second : nullptr));
    }
    return states;
}

}  // namespace trainscope::harness
