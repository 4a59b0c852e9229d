#include "profiler/sqlite/SqliteTransaction.hpp"

#include "profiler/sqlite/SqliteConnection.hpp"
#include "profiler/sqlite/SqliteError.hpp"

namespace trainscope::profiler {

SqliteTransaction::SqliteTransaction(const SqliteConnection& db)
    : db_(db), nested_(sqlite3_get_autocommit(db.handle()) == 0) {
    db_.exec(nested_ ? "SAVEPOINT ts_nested" : "BEGIN IMMEDIATE");
}

SqliteTransaction::~SqliteTransaction() {
    // SQLite has already rolled back a transaction whose COMMIT failed for a full disk;
    // a second ROLLBACK would only print an error.
    if (!done_ && sqlite3_get_autocommit(db_.handle()) == 0) {
        const char* rollback = nested_ ? "ROLLBACK TO ts_nested; RELEASE ts_nested" : "ROLLBACK";
        const char* call = nested_ ? "sqlite3_exec(\"ROLLBACK TO ts_nested; RELEASE ts_nested\")"
                                   : "sqlite3_exec(\"ROLLBACK\")";
        // The layer's function, not the macro: the connection's own message says why.
        log_sqlite_error(__FILE__, __LINE__, call,
                         sqlite3_exec(db_.handle(), rollback, nullptr, nullptr, nullptr),
                         db_.handle());
    }
}

void SqliteTransaction::commit() {
    db_.exec(nested_ ? "RELEASE ts_nested" : "COMMIT");
    done_ = true;
}

}  // namespace trainscope::profiler
