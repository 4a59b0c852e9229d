#include "profiler/sqlite/SqliteTransaction.hpp"

#include "profiler/sqlite/SqliteConnection.hpp"
#include "profiler/sqlite/SqliteError.hpp"

namespace trainscope::profiler {

SqliteTransaction::SqliteTransaction(const SqliteConnection& db) : db_(db) {
    db_.exec("BEGIN IMMEDIATE");
}

SqliteTransaction::~SqliteTransaction() {
    if (!done_) {
        TS_SQLITE_CHECK_NOEXCEPT(db_.handle(),
                                 sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr));
    }
}

void SqliteTransaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

}  // namespace trainscope::profiler
