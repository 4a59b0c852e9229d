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
        TS_SQLITE_CHECK_NOEXCEPT(
            db_.handle(),
            sqlite3_exec(db_.handle(),
                         nested_ ? "ROLLBACK TO ts_nested; RELEASE ts_nested" : "ROLLBACK", nullptr,
                         nullptr, nullptr));
    }
}

void SqliteTransaction::commit() {
    db_.exec(nested_ ? "RELEASE ts_nested" : "COMMIT");
    done_ = true;
}

}  // namespace trainscope::profiler
