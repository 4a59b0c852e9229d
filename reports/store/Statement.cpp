#include "reports/store/Statement.hpp"

#include <sqlite3.h>

#include <string>

#include "reports/store/SqliteError.hpp"

namespace trainscope::reports {

void Statement::Finalizer::operator()(sqlite3_stmt* stmt) const noexcept {
    sqlite3_finalize(stmt);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
    sqlite3_stmt* raw = nullptr;
    TS_SQLITE_CHECK(
        db_, sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &raw, nullptr));
    stmt_.reset(raw);
}

Statement& Statement::bind(int index, std::int64_t value) {
    TS_SQLITE_CHECK(db_, sqlite3_bind_int64(stmt_.get(), index, value));
    return *this;
}

Statement& Statement::bind(int index, double value) {
    TS_SQLITE_CHECK(db_, sqlite3_bind_double(stmt_.get(), index, value));
    return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
    TS_SQLITE_CHECK(db_, sqlite3_bind_text64(stmt_.get(), index, value.data(), value.size(),
                                             SQLITE_TRANSIENT, SQLITE_UTF8));
    return *this;
}

Statement& Statement::bind_null(int index) {
    TS_SQLITE_CHECK(db_, sqlite3_bind_null(stmt_.get(), index));
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_.get());
    if (rc == SQLITE_ROW)
        return true;
    TS_SQLITE_CHECK(db_, rc);
    return false;
}

void Statement::run() {
    while (step()) {
    }
    reset();
}

void Statement::reset() {
    sqlite3_reset(stmt_.get());
    sqlite3_clear_bindings(stmt_.get());
}

bool Statement::is_null(int column) const {
    return sqlite3_column_type(stmt_.get(), column) == SQLITE_NULL;
}

std::int64_t Statement::column_int64(int column) const {
    return sqlite3_column_int64(stmt_.get(), column);
}

double Statement::column_double(int column) const {
    return sqlite3_column_double(stmt_.get(), column);
}

std::string Statement::column_text(int column) const {
    const auto* text = sqlite3_column_text(stmt_.get(), column);
    if (text == nullptr)
        return {};
    return {reinterpret_cast<const char*>(text),
            static_cast<std::size_t>(sqlite3_column_bytes(stmt_.get(), column))};
}

std::optional<double> Statement::column_optional_double(int column) const {
    if (is_null(column))
        return std::nullopt;
    return column_double(column);
}

}  // namespace trainscope::reports
