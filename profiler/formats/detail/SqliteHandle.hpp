#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace trainscope::profiler::detail {

// A failed SQLite call: the message carries the call text, file:line, SQLite's own
// message and the numeric result code. Private to the profiler's importers, which
// turn it into a TraceFormatError naming the trace file.
class SqliteError : public std::runtime_error {
  public:
    SqliteError(const std::string& message, int code) : std::runtime_error(message), code_(code) {}
    [[nodiscard]] int code() const { return code_; }

  private:
    int code_;
};

[[noreturn]] void throw_sqlite_error(sqlite3* db, int status, const char* call, const char* file,
                                     int line);

#define TRAINSCOPE_PROFILER_SQLITE_CHECK(db, call)                                              \
    do {                                                                                        \
        const int trainscope_sqlite_status_ = (call);                                           \
        if (trainscope_sqlite_status_ != SQLITE_OK) {                                           \
            ::trainscope::profiler::detail::throw_sqlite_error((db), trainscope_sqlite_status_, \
                                                               #call, __FILE__, __LINE__);      \
        }                                                                                       \
    } while (false)

struct SqliteDatabaseCloser {
    using pointer = sqlite3*;
    void operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
};
struct SqliteStatementFinalizer {
    using pointer = sqlite3_stmt*;
    void operator()(sqlite3_stmt* stmt) const noexcept { sqlite3_finalize(stmt); }
};
using SqliteDatabase = std::unique_ptr<sqlite3, SqliteDatabaseCloser>;
using SqliteStatementHandle = std::unique_ptr<sqlite3_stmt, SqliteStatementFinalizer>;

// Opens an existing database read-only: importing never creates or changes a file.
SqliteDatabase open_sqlite_read_only(const std::filesystem::path& file);

// A prepared statement stepped row by row; columns read by index.
class SqliteQuery {
  public:
    SqliteQuery(sqlite3* db, std::string_view sql);

    bool next_row();  // false when done; throws SqliteError on failure
    [[nodiscard]] bool is_null(int column) const;
    [[nodiscard]] std::int64_t int64(int column) const;
    [[nodiscard]] std::string text(int column) const;  // "" for NULL

  private:
    sqlite3* db_;
    SqliteStatementHandle statement_;
};

bool sqlite_table_exists(sqlite3* db, std::string_view table);

}  // namespace trainscope::profiler::detail
