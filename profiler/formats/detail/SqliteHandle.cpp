#include "profiler/formats/detail/SqliteHandle.hpp"

namespace trainscope::profiler::detail {

void throw_sqlite_error(sqlite3* db, int status, const char* call, const char* file, int line) {
    const char* message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(status);
    throw SqliteError(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                          message + " (SQLite code " + std::to_string(status) + ")",
                      status);
}

SqliteDatabase open_sqlite_read_only(const std::filesystem::path& file) {
    sqlite3* raw = nullptr;
    const int status = sqlite3_open_v2(file.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
    SqliteDatabase db(raw);  // owns the handle even when opening failed
    TRAINSCOPE_PROFILER_SQLITE_CHECK(db.get(), status);
    return db;
}

SqliteQuery::SqliteQuery(sqlite3* db, std::string_view sql) : db_(db) {
    sqlite3_stmt* raw = nullptr;
    const int status =
        sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
    statement_.reset(raw);
    TRAINSCOPE_PROFILER_SQLITE_CHECK(db_, status);
}

bool SqliteQuery::next_row() {
    const int status = sqlite3_step(statement_.get());
    if (status == SQLITE_ROW)
        return true;
    if (status == SQLITE_DONE)
        return false;
    throw_sqlite_error(db_, status, "sqlite3_step", __FILE__, __LINE__);
}

bool SqliteQuery::is_null(int column) const {
    return sqlite3_column_type(statement_.get(), column) == SQLITE_NULL;
}

std::int64_t SqliteQuery::int64(int column) const {
    return sqlite3_column_int64(statement_.get(), column);
}

std::string SqliteQuery::text(int column) const {
    const unsigned char* value = sqlite3_column_text(statement_.get(), column);
    if (value == nullptr)
        return {};
    return std::string(reinterpret_cast<const char*>(value),
                       static_cast<std::size_t>(sqlite3_column_bytes(statement_.get(), column)));
}

bool sqlite_table_exists(sqlite3* db, std::string_view table) {
    // A handful of tables: scanning the catalogue avoids binding parameters.
    SqliteQuery query(db, "SELECT name FROM sqlite_master WHERE type = 'table'");
    while (query.next_row()) {
        if (query.text(0) == table)
            return true;
    }
    return false;
}

}  // namespace trainscope::profiler::detail
