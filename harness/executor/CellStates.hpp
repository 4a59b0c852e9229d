#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/executor/ResultsFolder.hpp"
#include "harness/executor/SlurmClient.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::harness {

// The newest attempt at one cell over a matrix's submissions, as the results folder and
// Slurm see it.
struct TaskAttempt {
    Submission submission;
    int index = 0;
    std::optional<reports::RunStatus> result_status;  // its result file, when written
    std::string result_error;
    std::optional<SlurmTask> slurm;  // what Slurm says, when it still knows the task
};

// Cell key -> its newest attempt. Slurm is asked only about submissions with a task
// that has no result file yet; a task it reports ended without a result gets a failure
// marker (write_failure_marker), which stands in for Slurm once it has forgotten the
// task. Without `slurm` (no client commands here) only the files count.
std::map<std::string, TaskAttempt> latest_attempts(const std::vector<Submission>& submissions,
                                                   const SlurmClient* slurm);

// A cell's run already in the results database.
struct RecordedRun {
    std::int64_t run_id = 0;
    reports::RunStatus status = reports::RunStatus::Ok;
    std::string error;
    std::string attempt;  // "<job>_<task>" of the Slurm task that produced it, or empty
};
std::string attempt_id(const std::string& job_id, int index);
// Cell key -> its recorded runs, oldest first.
std::map<std::string, std::vector<RecordedRun>> recorded_runs(const reports::ResultsDatabase& db,
                                                              std::int64_t matrix_id);

enum class CellState { Pending, Running, Done, Failed, Missing };
std::string_view to_string(CellState state);

struct CellStatus {
    std::string cell_key;
    CellState state = CellState::Missing;
    std::string node;
    std::string elapsed;
    std::string detail;  // why pending, why failed
};

// One cell's state: a recorded ok run is done; else the newest attempt decides (its
// result file, else Slurm's state); else a recorded failure; else missing.
CellStatus cell_status(const std::string& cell_key, const std::vector<RecordedRun>* recorded,
                       const TaskAttempt* attempt);

// Every cell of a matrix (its definition's order) with its state.
std::vector<CellStatus> matrix_cell_states(const reports::ResultsDatabase& db,
                                           std::int64_t matrix_id,
                                           const std::filesystem::path& matrix_dir,
                                           const SlurmClient* slurm);

// The cell keys of a stored matrix definition.
std::vector<std::string> matrix_cell_keys(const reports::ResultsDatabase& db,
                                          std::int64_t matrix_id);

}  // namespace trainscope::harness
