#include "reports/store/LaunchFlowStream.hpp"

#include <sqlite3.h>

#include <cstdlib>
#include <string>

#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/LaunchIndex.hpp"
#include "reports/store/SqliteError.hpp"

namespace trainscope::reports {

namespace {

using profiler::ActivityKind;

// The stored kind values `test` accepts, as an SQL list "(0,1,2)": the kinds' one
// definition (is_gpu_work, is_launch_call) rather than a copy of it in SQL.
std::string stored_kinds(bool (*test)(ActivityKind)) {
    std::string list(1, '(');
    for (int kind = 0; kind <= 255; ++kind) {
        if (!test(static_cast<ActivityKind>(kind)))
            continue;
        if (list.size() > 1)
            list += ',';
        list += std::to_string(kind);
    }
    list += ')';
    return list;
}

struct StoredRowids {
    std::int64_t first = 0;
    std::int64_t last = 0;
};

StoredRowids stored_rowids(const ResultsDatabase& db, std::int64_t run_id) {
    auto info =
        db.prepare("SELECT first_activity, last_activity FROM trace_info WHERE run_id = ?1");
    info.bind(1, run_id);
    if (!info.step()) {
        throw StoreError("run " + std::to_string(run_id) + " in '" + db.path().string() +
                         "' has no trace");
    }
    return {info.column_int64(0), info.column_int64(1)};
}

// SQLite's temporary folder as it picks it: $SQLITE_TMPDIR, else $TMPDIR, else the first of
// /var/tmp, /usr/tmp, /tmp it can write.
std::string sqlite_temporary_folder() {
    for (const char* name : {"SQLITE_TMPDIR", "TMPDIR"}) {
        const char* dir = std::getenv(name);
        if (dir != nullptr && *dir != '\0')
            return "'" + std::string(dir) + "' ($" + name + ")";
    }
    return "/var/tmp or /tmp (neither $SQLITE_TMPDIR nor $TMPDIR is set)";
}

// Fills the temporary table of launches and prepares the join, bound to the run's rows.
Statement joined_flows(const ResultsDatabase& db, std::int64_t run_id) {
    const StoredRowids rows = stored_rowids(db, run_id);
    // On disk, as a run's launches are millions of rows, unless SQLite was built with
    // SQLITE_TEMP_STORE=3: such a build keeps temporary tables in memory and ignores this.
    db.exec("PRAGMA temp_store = FILE");
    // Keyed by (rank, correlation): correlation ids are each rank's own (LaunchJoin's rule).
    // The lanes are joined after the activities (CROSS JOIN keeps that order), so the scan
    // stays one pass over the run's rows in rowid order.
    try {
        db.exec(
            "CREATE TEMP TABLE launches (rank INTEGER NOT NULL, correlation INTEGER NOT NULL, "
            "lane INTEGER NOT NULL, start_ns INTEGER NOT NULL, PRIMARY KEY (rank, correlation)) "
            "WITHOUT ROWID");
        // In rowid (trace) order, so OR IGNORE keeps a (rank, correlation)'s first call.
        auto fill = db.prepare(
            "INSERT OR IGNORE INTO temp.launches SELECT r.rank, a.correlation, a.lane, "
            "a.start_ns FROM activities a CROSS JOIN lanes r ON r.run_id = ?3 AND r.lane = "
            "a.lane WHERE a.rowid BETWEEN ?1 AND ?2 AND a.correlation <> 0 AND a.kind IN " +
            stored_kinds(&profiler::is_launch_call) + " ORDER BY a.rowid");
        fill.bind(1, rows.first).bind(2, rows.last).bind(3, run_id);
        fill.step();
    } catch (const SqliteError& e) {
        const int code = e.code() & 0xff;
        if (code != SQLITE_CANTOPEN && code != SQLITE_FULL && code != SQLITE_IOERR)
            throw;
        throw StoreError("cannot write the launches of run " + std::to_string(run_id) + " of '" +
                         db.path().string() + "' to SQLite's temporary folder " +
                         sqlite_temporary_folder() + ": " + sqlite3_errstr(e.code()) +
                         " (point SQLITE_TMPDIR or TMPDIR at a writable folder on a disk with "
                         "room)");
    }
    auto flows = db.prepare(
        "SELECT l.lane, l.start_ns, w.lane, w.start_ns FROM activities w "
        "CROSS JOIN lanes r ON r.run_id = ?3 AND r.lane = w.lane "
        "CROSS JOIN temp.launches l ON l.rank = r.rank AND l.correlation = w.correlation "
        "WHERE w.rowid BETWEEN ?1 AND ?2 AND w.kind IN " +
        stored_kinds(&profiler::is_gpu_work) + " ORDER BY w.rowid");
    flows.bind(1, rows.first).bind(2, rows.last).bind(3, run_id);
    return flows;
}

}  // namespace

LaunchFlowStream::LaunchFlowStream(const ResultsDatabase& db, std::int64_t run_id)
    : db_(db), flows_(joined_flows(db, run_id)) {}

LaunchFlowStream::~LaunchFlowStream() {
    flows_.reset();  // finalized first: a table a statement reads cannot be dropped
    // The layer's function, not the macro: a destructor does not throw.
    profiler::log_sqlite_error(
        __FILE__, __LINE__, "sqlite3_exec(\"DROP TABLE IF EXISTS temp.launches\")",
        sqlite3_exec(db_.handle(), "DROP TABLE IF EXISTS temp.launches", nullptr, nullptr, nullptr),
        db_.handle());
}

bool LaunchFlowStream::next(profiler::FlowEnd& launch, profiler::FlowEnd& work) {
    if (!flows_->step())
        return false;
    launch = {static_cast<profiler::LaneId>(flows_->column_int64(0)), flows_->column_int64(1)};
    work = {static_cast<profiler::LaneId>(flows_->column_int64(2)), flows_->column_int64(3)};
    return true;
}

}  // namespace trainscope::reports
