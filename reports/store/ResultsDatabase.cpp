#include "reports/store/ResultsDatabase.hpp"

#include <sqlite3.h>

#include <string>
#include <system_error>

#include "reports/store/Schema.hpp"
#include "reports/store/SqliteError.hpp"

namespace trainscope::reports {

void ResultsDatabase::Closer::operator()(sqlite3* db) const noexcept {
    TS_SQLITE_CHECK_NOEXCEPT(db, sqlite3_close_v2(db));
}

ResultsDatabase::ResultsDatabase(const std::filesystem::path& path, OpenMode mode) : path_(path) {
    std::error_code ec;
    const bool exists = std::filesystem::exists(path, ec);
    if (mode == OpenMode::ReadOnly && !exists) {
        throw StoreError("results database '" + path.string() +
                         "' does not exist: give the path of a file written by `trainscope run` "
                         "or `trainscope import`");
    }
    if (exists && std::filesystem::is_directory(path, ec)) {
        throw StoreError("results database '" + path.string() +
                         "' is a directory: give a file path such as results.db");
    }
    const int flags = mode == OpenMode::ReadOnly ? SQLITE_OPEN_READONLY
                                                 : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) {
        throw StoreError("cannot open results database '" + path.string() +
                         "': " + sqlite3_errstr(rc) +
                         (mode == OpenMode::CreateOrOpen
                              ? " (check that the folder exists and is writable, or choose "
                                "another --out path)"
                              : ""));
    }
    TS_SQLITE_CHECK(db_.get(), sqlite3_busy_timeout(db_.get(), 10000));
    exec("PRAGMA foreign_keys = ON");

    bool has_schema = false;
    try {
        Statement probe(db_.get(),
                        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                        "name = 'schema_version'");
        probe.step();
        has_schema = probe.column_int64(0) > 0;
        probe.reset();
    } catch (const SqliteError&) {
        throw StoreError("'" + path.string() +
                         "' is not an SQLite database (a trainscope results database was "
                         "expected): check the path, or import foreign traces with "
                         "`trainscope import`");
    }
    if (!has_schema) {
        if (mode == OpenMode::ReadOnly) {
            throw StoreError("'" + path.string() +
                             "' is an SQLite file but not a trainscope results database (no "
                             "schema_version table); for Nsight Systems exports use "
                             "`trainscope import FILE -o results.db`");
        }
        Statement tables(db_.get(), "SELECT count(*) FROM sqlite_master WHERE type = 'table'");
        tables.step();
        const bool has_tables = tables.column_int64(0) > 0;
        tables.reset();
        if (has_tables) {
            throw StoreError("'" + path.string() +
                             "' is an SQLite database of another program; refusing to write "
                             "into it: choose a new --out path");
        }
        create_schema();
    }
    check_schema(mode);
}

void ResultsDatabase::create_schema() const {
    exec("PRAGMA journal_mode = WAL");
    Transaction tx(*this);
    exec(detail::kSchemaSql);
    prepare("INSERT INTO schema_version (version) VALUES (?1)").bind(1, kSchemaVersion).run();
    tx.commit();
}

void ResultsDatabase::check_schema(OpenMode mode) {
    Statement version(db_.get(), "SELECT max(version) FROM schema_version");
    version.step();
    const auto found = version.column_int64(0);
    version.reset();
    if (found < kOldestReadableSchemaVersion || found > kSchemaVersion) {
        throw StoreError("results database '" + path_.string() + "' has schema version " +
                         std::to_string(found) + " but this trainscope reads versions " +
                         std::to_string(kOldestReadableSchemaVersion) + " to " +
                         std::to_string(kSchemaVersion) +
                         ": use the trainscope release that wrote it, or re-run the matrix");
    }
    schema_version_ = static_cast<int>(found);
    // Results already written stay readable: a reader takes an old file as it is, a
    // writer (run --resume into it, import) first adds what the new version has.
    if (schema_version_ == 1 && mode != OpenMode::ReadOnly) {
        upgrade_from_1();
        schema_version_ = kSchemaVersion;
    }
}

void ResultsDatabase::upgrade_from_1() const {
    Transaction tx(*this);
    // Another writer may have upgraded the file since the version was read; under the
    // write lock now, look again.
    Statement version(db_.get(), "SELECT max(version) FROM schema_version");
    version.step();
    const auto found = version.column_int64(0);
    version.reset();
    if (found >= 2)
        return;
    exec("ALTER TABLE steps ADD COLUMN data_ns INTEGER");
    prepare("INSERT INTO schema_version (version) VALUES (?1)").bind(1, kSchemaVersion).run();
    tx.commit();
}

Statement ResultsDatabase::prepare(std::string_view sql) const {
    return {db_.get(), sql};
}

void ResultsDatabase::exec(const char* sql) const {
    char* error = nullptr;
    const int rc = sqlite3_exec(db_.get(), sql, nullptr, nullptr, &error);
    if (error != nullptr)
        sqlite3_free(error);
    if (rc != SQLITE_OK) {
        std::string statement(sql);
        if (statement.size() > 80)
            statement = statement.substr(0, 77) + "...";
        const std::string call = "sqlite3_exec(\"" + statement + "\")";
        detail::throw_sqlite_error(__FILE__, __LINE__, call.c_str(), rc, db_.get());
    }
}

std::int64_t ResultsDatabase::last_insert_rowid() const {
    return sqlite3_last_insert_rowid(db_.get());
}

std::string ResultsDatabase::integrity_check() const {
    Statement check(db_.get(), "PRAGMA integrity_check");
    std::string verdict;
    while (check.step()) {
        if (!verdict.empty())
            verdict += "; ";
        verdict += check.column_text(0);
    }
    return verdict;
}

Transaction::Transaction(const ResultsDatabase& db)
    : db_(db), nested_(sqlite3_get_autocommit(db.handle()) == 0) {
    db_.exec(nested_ ? "SAVEPOINT ts_nested" : "BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
    if (!done_) {
        TS_SQLITE_CHECK_NOEXCEPT(
            db_.handle(),
            sqlite3_exec(db_.handle(),
                         nested_ ? "ROLLBACK TO ts_nested; RELEASE ts_nested" : "ROLLBACK", nullptr,
                         nullptr, nullptr));
    }
}

void Transaction::commit() {
    db_.exec(nested_ ? "RELEASE ts_nested" : "COMMIT");
    done_ = true;
}

}  // namespace trainscope::reports
