#pragma once

#include <filesystem>
#include <string>

namespace trainscope::harness {

// Holds a matrix's results database for one `trainscope run`:
// - A lock on the matrix in that file (an open-file-description lock on one byte far
//   beyond SQLite's own lock bytes, chosen by the matrix's cells and settings): two runs of
//   the same matrix into the same file, `--resume` or not, never run at once, so each cell
//   is recorded once. The second is refused (UsageError, exit 2). The kernel drops the lock
//   when the process ends, even by kill -9, so nothing stale is left to clean.
// - A file this run created stays only if something was recorded in it: bad input in the
//   first cell or a full disk leaves no empty database behind.
class ResultsFileLock {
  public:
    // `definition_json`: the plan's definition (MatrixPlan::definition_json).
    ResultsFileLock(std::filesystem::path database, const std::string& definition_json);
    ~ResultsFileLock();
    ResultsFileLock(const ResultsFileLock&) = delete;
    ResultsFileLock& operator=(const ResultsFileLock&) = delete;

    // Something was recorded: the file stays whatever happens next.
    void keep_file() { created_ = false; }

  private:
    std::filesystem::path database_;
    int fd_ = -1;
    bool created_ = false;
};

}  // namespace trainscope::harness
