#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace trainscope::reports {

// A prepared statement: bind by 1-based index, step, read columns by 0-based index.
// Move-only owner of the sqlite3_stmt.
class Statement {
  public:
    Statement(sqlite3* db, std::string_view sql);

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view value);
    Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
    Statement& bind(int index, const std::string& value) {
        return bind(index, std::string_view(value));
    }
    Statement& bind_null(int index);
    template <typename T>
    Statement& bind(int index, const std::optional<T>& value) {
        return value ? bind(index, *value) : bind_null(index);
    }

    // Returns true while a row is available.
    bool step();
    // Runs a statement that returns no rows, then resets it for the next bindings.
    void run();
    void reset();

    [[nodiscard]] bool is_null(int column) const;
    [[nodiscard]] std::int64_t column_int64(int column) const;
    [[nodiscard]] double column_double(int column) const;
    [[nodiscard]] std::string column_text(int column) const;
    [[nodiscard]] std::optional<double> column_optional_double(int column) const;

  private:
    struct Finalizer {
        void operator()(sqlite3_stmt* stmt) const noexcept;
    };
    sqlite3* db_;
    std::unique_ptr<sqlite3_stmt, Finalizer> stmt_;
};

}  // namespace trainscope::reports
