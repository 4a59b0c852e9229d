#include "reports/store/SqliteError.hpp"

#include <sqlite3.h>

#include <cstdio>
#include <string>

namespace trainscope::reports::detail {

namespace {
std::string describe(const char* file, int line, const char* call, int code, sqlite3* db) {
    std::string message = std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                          ": " + sqlite3_errstr(code);
    if (db != nullptr && sqlite3_errcode(db) == code) {
        message += " (";
        message += sqlite3_errmsg(db);
        message += ")";
    }
    message += " [SQLite code " + std::to_string(code) + "]";
    return message;
}
}  // namespace

void throw_sqlite_error(const char* file, int line, const char* call, int code, sqlite3* db) {
    throw SqliteError(describe(file, line, call, code, db), code);
}

void log_sqlite_error(const char* file, int line, const char* call, int code,
                      sqlite3* db) noexcept {
    try {
        std::fprintf(stderr, "trainscope: %s\n", describe(file, line, call, code, db).c_str());
    } catch (...) {
        std::fputs("trainscope: an SQLite call failed while cleaning up\n", stderr);
    }
}

}  // namespace trainscope::reports::detail
