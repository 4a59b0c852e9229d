#pragma once

#include <sqlite3.h>

#include <string>
#include <string_view>

#include "common/LibraryError.hpp"

namespace trainscope::profiler {

// A failed SQLite call (common/LibraryError.hpp): call text, file:line, SQLite's words
// for the result code followed by the connection's own message where it has one
// ("SQL logic error: no such table: runs"), and the numeric result code. The Nsight
// Systems importer turns it into a TraceFormatError naming the trace file; the results
// store lets it through as the library fault it is.
class SqliteError : public LibraryError {
  public:
    // `db` is the connection whose message explains the failure, or null (no connection,
    // or a check through TS_SQLITE_CHECK): then only the result code's words are given.
    SqliteError(const char* file, int line, const char* call, int status, sqlite3* db);
};

[[noreturn]] void throw_sqlite_error(const char* file, int line, const char* call, int status,
                                     sqlite3* db);
// For destructors: logs a failure to stderr and returns whether the call succeeded.
bool log_sqlite_error(const char* file, int line, const char* call, int status,
                      sqlite3* db) noexcept;

// "sqlite3_step(\"SELECT ...\")": the call text for a call whose interesting argument is
// SQL, shortened to a readable length.
std::string sqlite_call_text(std::string_view function, std::string_view sql);

// SQLITE_OK, SQLITE_ROW and SQLITE_DONE are success; every other result code is a failure.
constexpr bool sqlite_succeeded(int status) {
    return status == SQLITE_OK || status == SQLITE_ROW || status == SQLITE_DONE;
}

}  // namespace trainscope::profiler

// Throws SqliteError unless `call` succeeds, with SQLite's words for the result code. The
// layer's own types (SqliteConnection, SqliteStatement, SqliteTransaction) check through
// the functions above instead: they hold the connection, whose message says more ("no
// such table: runs"), and they name their caller's place rather than their own.
#define TS_SQLITE_CHECK(call)                                                                 \
    do {                                                                                      \
        const int ts_status_ = (call);                                                        \
        if (!::trainscope::profiler::sqlite_succeeded(ts_status_)) {                          \
            ::trainscope::profiler::throw_sqlite_error(__FILE__, __LINE__, #call, ts_status_, \
                                                       nullptr);                              \
        }                                                                                     \
    } while (false)

// Evaluates to true when the call succeeded; logs and evaluates to false otherwise.
#define TS_SQLITE_CHECK_NOEXCEPT(call) \
    ::trainscope::profiler::log_sqlite_error(__FILE__, __LINE__, #call, (call), nullptr)
