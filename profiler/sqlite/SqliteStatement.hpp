#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/SourcePlace.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace trainscope::profiler {

// A prepared statement: bind by 1-based index, step, read columns by 0-based index.
// Move-only owner of the sqlite3_stmt. Every failure throws SqliteError naming the call,
// the statement's SQL and the place in our code that prepared it (the caller's file:line,
// not this wrapper's: that is where a reader of the message needs to look).
class SqliteStatement {
  public:
    SqliteStatement(sqlite3* db, std::string_view sql, SourcePlace where = SourcePlace::here());

    SqliteStatement& bind(int index, std::int64_t value);
    SqliteStatement& bind(int index, int value) {
        return bind(index, static_cast<std::int64_t>(value));
    }
    SqliteStatement& bind(int index, double value);
    SqliteStatement& bind(int index, std::string_view value);
    SqliteStatement& bind(int index, const char* value) {
        return bind(index, std::string_view(value));
    }
    SqliteStatement& bind(int index, const std::string& value) {
        return bind(index, std::string_view(value));
    }
    SqliteStatement& bind_null(int index);
    // Binds bytes as a BLOB (copied).
    SqliteStatement& bind_blob(int index, std::span<const std::byte> bytes);
    // Binds a BLOB of `size` zero bytes, to be filled in place (SqliteBlobWriter).
    SqliteStatement& bind_zeroblob(int index, std::int64_t size);
    template <typename T>
    SqliteStatement& bind(int index, const std::optional<T>& value) {
        return value ? bind(index, *value) : bind_null(index);
    }

    // Returns true while a row is available.
    bool step();
    // Runs a statement that returns no rows, then resets it for the next bindings.
    void run();
    // Runs it the same way but keeps its bindings for the next run, for a caller that
    // binds only the values that changed (SqliteChangedBindings).
    void run_keeping_bindings();
    void reset();

    [[nodiscard]] bool is_null(int column) const;
    [[nodiscard]] std::int64_t column_int64(int column) const;
    [[nodiscard]] double column_double(int column) const;
    [[nodiscard]] std::string column_text(int column) const;  // "" for NULL
    [[nodiscard]] std::optional<double> column_optional_double(int column) const;
    // A BLOB column's bytes, valid until the next step or reset; empty for NULL.
    [[nodiscard]] std::span<const std::byte> column_blob(int column) const;

  private:
    struct Finalizer {
        using pointer = sqlite3_stmt*;
        void operator()(sqlite3_stmt* stmt) const noexcept;
    };
    [[noreturn]] void fail(const char* function, int status) const;

    sqlite3* db_;
    SourcePlace where_;
    std::unique_ptr<sqlite3_stmt, Finalizer> stmt_;
};

}  // namespace trainscope::profiler
