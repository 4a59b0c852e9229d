#include "reports/store/ResultsDatabase.hpp"

#include <sqlite3.h>
#include <sys/statvfs.h>

#include <string>
#include <system_error>

#include "reports/store/Schema.hpp"
#include "reports/store/SqliteError.hpp"

namespace trainscope::reports {

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
    try {
        open(path, flags | SQLITE_OPEN_NOMUTEX);
    } catch (const SqliteError& e) {
        throw StoreError("cannot open results database '" + path.string() +
                         "': " + sqlite3_errstr(e.code()) +
                         (mode == OpenMode::CreateOrOpen
                              ? " (check that the folder exists and is writable, or choose "
                                "another --out path)"
                              : ""));
    }
    TS_SQLITE_CHECK(sqlite3_busy_timeout(handle(), 10000));
    exec("PRAGMA foreign_keys = ON");

    bool has_schema = false;
    try {
        Statement probe(handle(),
                        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                        "name = 'schema_version'");
        probe.step();
        has_schema = probe.column_int64(0) > 0;
        probe.reset();
    } catch (const SqliteError& e) {
        if (e.code() == SQLITE_NOTADB) {
            throw StoreError("'" + path.string() +
                             "' is not an SQLite database (a trainscope results database was "
                             "expected): check the path, or import foreign traces with "
                             "`trainscope import`");
        }
        // A sound file that cannot be read now: a full disk (WAL mode needs room for its
        // shared-memory file even to read), a lock, an I/O error. Say that, not "not a
        // database".
        const bool full = is_disk_full(path, e.code());
        throw StoreError("cannot read results database '" + path.string() + "': " +
                         (full ? std::string("the disk holding it is full (free some space and "
                                             "try again)")
                               : std::string(sqlite3_errstr(e.code()))));
    }
    if (!has_schema) {
        if (mode == OpenMode::ReadOnly) {
            throw StoreError("'" + path.string() +
                             "' is an SQLite file but not a trainscope results database (no "
                             "schema_version table); for Nsight Systems exports use "
                             "`trainscope import FILE -o results.db`");
        }
        Statement tables(handle(), "SELECT count(*) FROM sqlite_master WHERE type = 'table'");
        tables.step();
        const bool has_tables = tables.column_int64(0) > 0;
        tables.reset();
        if (has_tables) {
            throw StoreError("'" + path.string() +
                             "' is an SQLite database of another program; refusing to write "
                             "into it: choose a new --out path");
        }
        create_schema();
        created_ = true;
    }
    check_schema(mode);
    if (mode != OpenMode::ReadOnly && !created_)
        restore_wal();
}

// A file left in rollback mode (an import into a new file that stopped, or was killed,
// before NewFileJournal::done) returns to WAL, the mode every writer expects. A file
// another connection holds stays as it is: SQLite reads and writes it in either mode.
void ResultsDatabase::restore_wal() const {
    Statement mode(handle(), "PRAGMA journal_mode");
    const bool wal = mode.step() && mode.column_text(0) == "wal";
    mode.reset();
    if (wal)
        return;
    try {
        exec("PRAGMA journal_mode = WAL");
    } catch (const SqliteError& e) {
        const int primary = e.code() & 0xff;
        if (primary != SQLITE_BUSY && primary != SQLITE_LOCKED)
            throw;
    }
}

void ResultsDatabase::create_schema() const {
    exec("PRAGMA journal_mode = WAL");
    Transaction tx(*this);
    exec(detail::kSchemaSql);
    exec(detail::kCollectivesSql);
    exec(detail::kLaneSummariesSql);
    exec(detail::kMemoryPeaksSql);
    exec(detail::kOpFlopsSql);
    exec(detail::kRankMemorySql);
    exec(detail::kLaneSummaryEncodingSql);
    prepare("INSERT INTO schema_version (version) VALUES (?1)").bind(1, kSchemaVersion).run();
    tx.commit();
}

void ResultsDatabase::check_schema(OpenMode mode) {
    Statement version(handle(), "SELECT max(version) FROM schema_version");
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
    if (schema_version_ < kSchemaVersion && mode != OpenMode::ReadOnly) {
        upgrade();
        schema_version_ = kSchemaVersion;
    }
}

void ResultsDatabase::upgrade() const {
    Transaction tx(*this);
    // Another writer may have upgraded the file since the version was read; under the
    // write lock now, look again.
    Statement version(handle(), "SELECT max(version) FROM schema_version");
    version.step();
    const auto found = version.column_int64(0);
    version.reset();
    if (found >= kSchemaVersion)
        return;
    if (found < 2)
        exec("ALTER TABLE steps ADD COLUMN data_ns INTEGER");
    if (found < 3) {
        exec("ALTER TABLE lanes ADD COLUMN rank INTEGER NOT NULL DEFAULT 0");
        exec("ALTER TABLE trace_info ADD COLUMN world_size INTEGER NOT NULL DEFAULT 1");
        exec(detail::kCollectivesSql);
        exec("ALTER TABLE runs ADD COLUMN ranks INTEGER NOT NULL DEFAULT 1");
        exec("ALTER TABLE runs ADD COLUMN bucket_mb REAL");
        exec("ALTER TABLE runs ADD COLUMN overlap TEXT NOT NULL DEFAULT ''");
        // Every run before the framework axis was trained by trainscope's engine; imported
        // traces have none.
        exec("ALTER TABLE runs ADD COLUMN framework TEXT NOT NULL DEFAULT ''");
        exec("UPDATE runs SET framework = 'trainscope' WHERE source = 'trainscope'");
    }
    // Runs stored before version 4 have no summaries (readers make them when they load)
    // and no memory peaks; their activities no FLOP count.
    if (found < 4) {
        exec(detail::kLaneSummariesSql);
        exec(detail::kMemoryPeaksSql);
        exec(detail::kOpFlopsSql);
    }
    // Version 5 keeps series and memory peaks per rank; older runs' are rank 0's.
    if (found < 5)
        exec(detail::kRankMemorySql);
    // Version 6 deflates the summaries of new runs; older runs' stay packed.
    if (found < 6)
        exec(detail::kLaneSummaryEncodingSql);
    prepare("INSERT INTO schema_version (version) VALUES (?1)").bind(1, kSchemaVersion).run();
    tx.commit();
}

void ResultsDatabase::exec(const char* sql) const {
    SqliteConnection::exec(sql, SourcePlace::here());
}

bool is_disk_full(const std::filesystem::path& database, int sqlite_code) {
    if (sqlite_code == SQLITE_FULL)
        return true;
    const std::filesystem::path folder =
        database.has_parent_path() ? database.parent_path() : std::filesystem::path(".");
    struct statvfs fs {};
    return sqlite_code == SQLITE_IOERR && statvfs(folder.c_str(), &fs) == 0 && fs.f_bavail == 0;
}

}  // namespace trainscope::reports
