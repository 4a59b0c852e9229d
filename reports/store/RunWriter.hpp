#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

struct MatrixInfo {
    std::string name;
    std::string definition;  // the expanded matrix as text (TOML or flags)
    std::string trainscope_version;
    std::string git_revision;
};

// Writes runs into a results database. Each run (with its steps, metrics, environment
// and trace) goes in one transaction: a crash never leaves half a run.
class RunWriter {
  public:
    explicit RunWriter(const ResultsDatabase& db) : db_(db) {}

    std::int64_t create_matrix(const MatrixInfo& info);
    // Creates a matrix and writes its first runs in the same transaction, so that a crash
    // never leaves a matrix without runs. Sets each run's matrix_id and id.
    std::int64_t create_matrix_with_runs(const MatrixInfo& info, std::span<RunRecord> runs);
    // Returns the new run id.
    std::int64_t write(const RunRecord& run);
    // Writes `run` and deletes the runs it supersedes (a resumed matrix re-running a
    // failed cell) in one transaction.
    std::int64_t replace(const RunRecord& run, const std::vector<std::int64_t>& superseded_run_ids);
    // Many replacements in one transaction (collecting a cluster's results): all are
    // written or none. Returns the new run ids in order.
    struct Replacement {
        RunRecord run;
        std::vector<std::int64_t> superseded_run_ids;
    };
    std::vector<std::int64_t> replace_all(const std::vector<Replacement>& replacements);

  private:
    std::int64_t write_rows(const RunRecord& run, const std::vector<std::int64_t>& superseded);
    std::int64_t insert_matrix(const MatrixInfo& info);
    std::int64_t insert_run(const RunRecord& run);

    const ResultsDatabase& db_;
};

}  // namespace trainscope::reports
