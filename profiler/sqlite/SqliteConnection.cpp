#include "profiler/sqlite/SqliteConnection.hpp"

#include <sqlite3.h>

#include "common/SourcePlace.hpp"
#include "profiler/sqlite/SqliteError.hpp"

namespace trainscope::profiler {

void SqliteConnection::Closer::operator()(sqlite3* db) const noexcept {
    TS_SQLITE_CHECK_NOEXCEPT(sqlite3_close_v2(db));
}

SqliteConnection::SqliteConnection(const std::filesystem::path& path, int flags) {
    open(path, flags);
}

void SqliteConnection::open(const std::filesystem::path& path, int flags) {
    sqlite3* raw = nullptr;
    const int status = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
    db_.reset(raw);  // owns the handle even when opening failed
    if (status != SQLITE_OK) {
        throw_sqlite_error(__FILE__, __LINE__,
                           sqlite_call_text("sqlite3_open_v2", path.string()).c_str(), status,
                           db_.get());
    }
}

SqliteStatement SqliteConnection::prepare(std::string_view sql, SourcePlace where) const {
    return {db_.get(), sql, where};
}

void SqliteConnection::exec(std::string_view sql, SourcePlace where) const {
    // sqlite3_exec needs a terminated string; the SQL is short.
    const std::string text(sql);
    char* message = nullptr;
    const int status = sqlite3_exec(db_.get(), text.c_str(), nullptr, nullptr, &message);
    sqlite3_free(message);  // the same text as sqlite3_errmsg, which SqliteError reads
    if (status != SQLITE_OK) {
        throw_sqlite_error(where.file, where.line, sqlite_call_text("sqlite3_exec", sql).c_str(),
                           status, db_.get());
    }
}

std::int64_t SqliteConnection::last_insert_rowid() const {
    return sqlite3_last_insert_rowid(db_.get());
}

bool SqliteConnection::table_exists(std::string_view table) const {
    SqliteStatement query(db_.get(),
                          "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1");
    query.bind(1, table);
    query.step();
    return query.column_int64(0) > 0;
}

std::string SqliteConnection::integrity_check() const {
    SqliteStatement check(db_.get(), "PRAGMA integrity_check");
    std::string verdict;
    while (check.step()) {
        if (!verdict.empty())
            verdict += "; ";
        verdict += check.column_text(0);
    }
    return verdict;
}

}  // namespace trainscope::profiler
