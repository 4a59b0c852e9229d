#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

struct MatrixRow {
    std::int64_t id = 0;
    std::string name;
    std::string created_utc;
    std::string definition;
    std::string trainscope_version;
    std::string git_revision;
};

// Which parts of a run to load: the runs table row is always read.
struct RunParts {
    bool metrics = true;
    bool environment = true;
    bool steps = false;
    bool evaluations = false;
    bool trace = false;
};

struct RunQuery {
    std::optional<std::int64_t> matrix_id;
    std::vector<std::int64_t> run_ids;  // empty: all runs (of the matrix)
};

std::vector<MatrixRow> list_matrices(const ResultsDatabase& db);
// Runs in id order. Throws StoreError naming a requested run id that does not exist.
std::vector<RunRecord> load_runs(const ResultsDatabase& db, const RunQuery& query,
                                 const RunParts& parts);
RunRecord load_run(const ResultsDatabase& db, std::int64_t run_id, const RunParts& parts);
struct CellRunRow {
    std::int64_t run_id = 0;
    std::string cell_key;
    RunStatus status = RunStatus::Ok;
};
// Every run of a matrix, id order: what a resumed matrix has already done.
std::vector<CellRunRow> cell_runs(const ResultsDatabase& db, std::int64_t matrix_id);

// Cells of a matrix already recorded as ok: a resumed matrix skips them.
std::set<std::string> ok_cell_keys(const ResultsDatabase& db, std::int64_t matrix_id);

}  // namespace trainscope::reports
