#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/executor/SlurmClient.hpp"

namespace trainscope::harness {

// One sbatch of a matrix: which cell each array task runs. Lives in its own folder
//   <out>.slurm/matrix-<id>/sub-<n>/submission.json  this manifest
//                                  task-<i>.json     the cell job of array task i
//                                  result-<i>.db     its run, renamed into place when whole
//                                  failed-<i>.json   Slurm's word on task i, written
//                                                    when it was seen ended without a result
//                                  log-<job>_<i>.out the task's output
// on the shared file system, beside the results database.
struct Submission {
    std::filesystem::path dir;
    int number = 0;                      // n of sub-<n>; later submissions replace earlier attempts
    std::string job_id;                  // Slurm's array job id; empty until sbatch answered
    std::vector<std::string> cell_keys;  // index: the array task id
    std::string time_per_cell;
    long timeout_s = 3600;  // trainscope's own per-cell timeout inside the task

    [[nodiscard]] std::filesystem::path task_file(int index) const;
    [[nodiscard]] std::filesystem::path result_file(int index) const;
    [[nodiscard]] std::filesystem::path failure_file(int index) const;
};

// <out>.slurm: where the cells of every Slurm-run matrix of results database `out` land.
std::filesystem::path slurm_root(const std::filesystem::path& out);
std::filesystem::path matrix_folder(const std::filesystem::path& out, std::int64_t matrix_id);
// Matrix id -> folder, for the matrices of `out` that were sent to Slurm.
std::map<std::int64_t, std::filesystem::path> slurm_matrices(const std::filesystem::path& out);

// Creates the next sub-<n> folder of a matrix.
Submission new_submission(const std::filesystem::path& matrix_dir);
// Written to a temporary name and renamed: a reader sees the old manifest or the new.
void write_submission(const Submission& submission);
Submission read_submission(const std::filesystem::path& dir);
// What Slurm said of a task that ended without a result, kept beside it: the controller
// forgets the task MinJobAge later, and a cluster may keep no accounting. Written once,
// to a temporary name and renamed; false where it could not be (a folder this user may
// only read: `status` still shows what Slurm says now).
bool write_failure_marker(const Submission& submission, const SlurmTask& task);
std::optional<SlurmTask> read_failure_marker(const Submission& submission, int index);

// Every submission of a matrix, oldest first.
std::vector<Submission> read_submissions(const std::filesystem::path& matrix_dir);

}  // namespace trainscope::harness
