#include "profiler/sqlite/SqliteError.hpp"

#include <cstring>

namespace trainscope::profiler {

namespace {
constexpr const char* kSqlite = "SQLite";
constexpr std::size_t kLongestSqlShown = 80;

// SQLite's words for the code, then the connection's message when it is about this
// failure and says more.
std::string sqlite_words(int status, sqlite3* db) {
    std::string words = sqlite3_errstr(status);
    if (db != nullptr &&
        (sqlite3_extended_errcode(db) == status || sqlite3_errcode(db) == status)) {
        const char* message = sqlite3_errmsg(db);
        if (message != nullptr && std::strcmp(message, words.c_str()) != 0)
            words.append(": ").append(message);
    }
    return words;
}
}  // namespace

SqliteError::SqliteError(const char* file, int line, const char* call, int status, sqlite3* db)
    : LibraryError(kSqlite, file, line, call, sqlite_words(status, db), status) {}

void throw_sqlite_error(const char* file, int line, const char* call, int status, sqlite3* db) {
    throw SqliteError(file, line, call, status, db);
}

bool log_sqlite_error(const char* file, int line, const char* call, int status,
                      sqlite3* db) noexcept {
    if (sqlite_succeeded(status))
        return true;
    try {
        return log_library_failure(kSqlite, file, line, call, sqlite_words(status, db), status);
    } catch (...) {
        return log_library_failure(kSqlite, file, line, call, "", status);
    }
}

std::string sqlite_call_text(std::string_view function, std::string_view sql) {
    std::string shown(sql.substr(0, kLongestSqlShown));
    if (sql.size() > kLongestSqlShown)
        shown.replace(kLongestSqlShown - 3, 3, "...");
    return std::string(function) + "(\"" + shown + "\")";
}

}  // namespace trainscope::profiler
