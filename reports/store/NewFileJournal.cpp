#include "reports/store/NewFileJournal.hpp"

#include <sqlite3.h>

#include <string>

#include "reports/store/SqliteError.hpp"

namespace trainscope::reports {

NewFileJournal::NewFileJournal(const ResultsDatabase& db) : db_(db) {
    if (!db.created())
        return;
    try {
        Statement mode = db.prepare("PRAGMA journal_mode = DELETE");
        switched_ = mode.step() && mode.column_text(0) == "delete";
        mode.reset();
        if (switched_) {
            // The commit of a rollback journal is the journal's unlink: FULL does not sync
            // the folder after it, so a power cut could bring the journal back and roll
            // the committed import back. EXTRA does (one more fsync), as WAL's FULL was.
            Statement sync = db.prepare("PRAGMA synchronous");
            if (sync.step())
                synchronous_ = sync.column_int64(0);
            sync.reset();
            db.exec("PRAGMA synchronous = EXTRA");
        }
    } catch (const SqliteError& e) {
        // Leaving WAL mode needs the file to itself: should another connection have
        // opened it already, the write stays in WAL mode, only slower.
        const int primary = e.code() & 0xff;
        if (primary != SQLITE_BUSY && primary != SQLITE_LOCKED)
            throw;
    }
}

void NewFileJournal::done() noexcept {
    if (!switched_)
        return;
    switched_ = false;
    // The layer's function, not the macro: the connection's own message says why.
    profiler::log_sqlite_error(
        __FILE__, __LINE__, "sqlite3_exec(\"PRAGMA journal_mode = WAL\")",
        sqlite3_exec(db_.handle(), "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr),
        db_.handle());
    const std::string sync = "PRAGMA synchronous = " + std::to_string(synchronous_);
    profiler::log_sqlite_error(__FILE__, __LINE__, "sqlite3_exec(\"PRAGMA synchronous\")",
                               sqlite3_exec(db_.handle(), sync.c_str(), nullptr, nullptr, nullptr),
                               db_.handle());
}

}  // namespace trainscope::reports
