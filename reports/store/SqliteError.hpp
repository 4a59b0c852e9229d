#pragma once

#include <stdexcept>
#include <string>

struct sqlite3;

namespace trainscope::reports {

// A failed SQLite call: the message carries the call text, file:line, SQLite's own
// message and the numeric result code.
class SqliteError : public std::runtime_error {
  public:
    SqliteError(const std::string& message, int code) : std::runtime_error(message), code_(code) {}
    [[nodiscard]] int code() const { return code_; }

  private:
    int code_;
};

// Bad input to the store that the user can fix (a foreign file, a newer schema, an
// unwritable path): the message names the file and the fix.
class StoreError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

namespace detail {
[[noreturn]] void throw_sqlite_error(const char* file, int line, const char* call, int code,
                                     sqlite3* db);
void log_sqlite_error(const char* file, int line, const char* call, int code, sqlite3* db) noexcept;
}  // namespace detail

}  // namespace trainscope::reports

// Checks an SQLite result code; anything but SQLITE_OK, SQLITE_ROW or SQLITE_DONE throws.
#define TS_SQLITE_CHECK(db, call)                                                        \
    do {                                                                                 \
        const int ts_sqlite_rc_ = (call);                                                \
        if (ts_sqlite_rc_ != SQLITE_OK && ts_sqlite_rc_ != SQLITE_ROW &&                 \
            ts_sqlite_rc_ != SQLITE_DONE) {                                              \
            ::trainscope::reports::detail::throw_sqlite_error(__FILE__, __LINE__, #call, \
                                                              ts_sqlite_rc_, (db));      \
        }                                                                                \
    } while (false)

// The destructor-safe twin: logs to stderr instead of throwing.
#define TS_SQLITE_CHECK_NOEXCEPT(db, call)                                             \
    do {                                                                               \
        const int ts_sqlite_rc_ = (call);                                              \
        if (ts_sqlite_rc_ != SQLITE_OK && ts_sqlite_rc_ != SQLITE_DONE) {              \
            ::trainscope::reports::detail::log_sqlite_error(__FILE__, __LINE__, #call, \
                                                            ts_sqlite_rc_, (db));      \
        }                                                                              \
    } while (false)
