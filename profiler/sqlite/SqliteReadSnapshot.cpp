#include "profiler/sqlite/SqliteReadSnapshot.hpp"

#include "profiler/sqlite/SqliteConnection.hpp"
#include "profiler/sqlite/SqliteError.hpp"

namespace trainscope::profiler {

SqliteReadSnapshot::SqliteReadSnapshot(const SqliteConnection& db) : db_(db) {
    if (sqlite3_get_autocommit(db.handle()) == 0)
        return;
    // DEFERRED takes no lock: the snapshot is taken by the first read, and a read-only
    // connection may open it.
    db_.exec("BEGIN DEFERRED");
    began_ = true;
}

SqliteReadSnapshot::~SqliteReadSnapshot() {
    if (!began_ || sqlite3_get_autocommit(db_.handle()) != 0)
        return;
    // Nothing was written to the database: ending it only releases the snapshot. The
    // layer's function, not the macro: a destructor does not throw.
    log_sqlite_error(__FILE__, __LINE__, "sqlite3_exec(\"COMMIT\")",
                     sqlite3_exec(db_.handle(), "COMMIT", nullptr, nullptr, nullptr), db_.handle());
}

}  // namespace trainscope::profiler
