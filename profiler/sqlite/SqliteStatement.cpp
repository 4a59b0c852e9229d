#include "profiler/sqlite/SqliteStatement.hpp"

#include <sqlite3.h>

#include "common/SourcePlace.hpp"
#include "profiler/sqlite/SqliteError.hpp"

namespace trainscope::profiler {

void SqliteStatement::Finalizer::operator()(sqlite3_stmt* stmt) const noexcept {
    sqlite3_finalize(stmt);
}

SqliteStatement::SqliteStatement(sqlite3* db, std::string_view sql, SourcePlace where)
    : db_(db), where_(where) {
    sqlite3_stmt* raw = nullptr;
    const int status =
        sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
    stmt_.reset(raw);
    if (status != SQLITE_OK) {
        throw_sqlite_error(where_.file, where_.line,
                           sqlite_call_text("sqlite3_prepare_v2", sql).c_str(), status, db_);
    }
}

void SqliteStatement::fail(const char* function, int status) const {
    const char* sql = sqlite3_sql(stmt_.get());
    throw_sqlite_error(where_.file, where_.line,
                       sqlite_call_text(function, sql != nullptr ? sql : "").c_str(), status, db_);
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
    if (const int status = sqlite3_bind_int64(stmt_.get(), index, value); status != SQLITE_OK)
        fail("sqlite3_bind_int64", status);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
    if (const int status = sqlite3_bind_double(stmt_.get(), index, value); status != SQLITE_OK)
        fail("sqlite3_bind_double", status);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view value) {
    if (const int status = sqlite3_bind_text64(stmt_.get(), index, value.data(), value.size(),
                                               SQLITE_TRANSIENT, SQLITE_UTF8);
        status != SQLITE_OK) {
        fail("sqlite3_bind_text64", status);
    }
    return *this;
}

SqliteStatement& SqliteStatement::bind_blob(int index, std::span<const std::byte> bytes) {
    if (const int status =
            sqlite3_bind_blob64(stmt_.get(), index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
        status != SQLITE_OK) {
        fail("sqlite3_bind_blob64", status);
    }
    return *this;
}

SqliteStatement& SqliteStatement::bind_zeroblob(int index, std::int64_t size) {
    if (const int status =
            sqlite3_bind_zeroblob64(stmt_.get(), index, static_cast<sqlite3_uint64>(size));
        status != SQLITE_OK) {
        fail("sqlite3_bind_zeroblob64", status);
    }
    return *this;
}

SqliteStatement& SqliteStatement::bind_null(int index) {
    if (const int status = sqlite3_bind_null(stmt_.get(), index); status != SQLITE_OK)
        fail("sqlite3_bind_null", status);
    return *this;
}

bool SqliteStatement::step() {
    const int status = sqlite3_step(stmt_.get());
    if (status == SQLITE_ROW)
        return true;
    if (status != SQLITE_DONE)
        fail("sqlite3_step", status);
    return false;
}

void SqliteStatement::run() {
    while (step()) {
    }
    reset();
}

void SqliteStatement::run_keeping_bindings() {
    while (step()) {
    }
    // The result repeats the last step's, which step() has already reported.
    sqlite3_reset(stmt_.get());
}

void SqliteStatement::reset() {
    // The result repeats the last step's, which step() has already reported.
    sqlite3_reset(stmt_.get());
    sqlite3_clear_bindings(stmt_.get());
}

bool SqliteStatement::is_null(int column) const {
    return sqlite3_column_type(stmt_.get(), column) == SQLITE_NULL;
}

std::int64_t SqliteStatement::column_int64(int column) const {
    return sqlite3_column_int64(stmt_.get(), column);
}

double SqliteStatement::column_double(int column) const {
    return sqlite3_column_double(stmt_.get(), column);
}

std::string SqliteStatement::column_text(int column) const {
    const auto* text = sqlite3_column_text(stmt_.get(), column);
    if (text == nullptr)
        return {};
    return {reinterpret_cast<const char*>(text),
            static_cast<std::size_t>(sqlite3_column_bytes(stmt_.get(), column))};
}

std::span<const std::byte> SqliteStatement::column_blob(int column) const {
    const void* data = sqlite3_column_blob(stmt_.get(), column);
    if (data == nullptr)
        return {};
    return {static_cast<const std::byte*>(data),
            static_cast<std::size_t>(sqlite3_column_bytes(stmt_.get(), column))};
}

std::optional<double> SqliteStatement::column_optional_double(int column) const {
    if (is_null(column))
        return std::nullopt;
    return column_double(column);
}

}  // namespace trainscope::profiler
