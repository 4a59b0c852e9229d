#pragma once

#include <filesystem>
#include <string>

#include "profiler/sqlite/SqliteConnection.hpp"
#include "profiler/sqlite/SqliteStatement.hpp"
#include "profiler/sqlite/SqliteTransaction.hpp"

namespace trainscope::reports {

// The store reads and writes through the one SQLite layer (profiler/sqlite/).
using Statement = profiler::SqliteStatement;
// BEGIN IMMEDIATE on construction, ROLLBACK on destruction unless commit() was called:
// a run is written whole or not at all.
using Transaction = profiler::SqliteTransaction;

// The results database schema version this build reads and writes (docs/formats.md).
inline constexpr int kSchemaVersion = 6;
// The oldest version still read: 1 lacks steps.data_ns, which reads as absent; 1 and 2
// lack the ranks of a distributed trace (lanes.rank, trace_info.world_size, the
// collectives table), which read as one rank without collectives.
inline constexpr int kOldestReadableSchemaVersion = 1;

enum class OpenMode {
    ReadOnly,      // the file must exist and be a trainscope results database
    CreateOrOpen,  // creates the file and the schema if needed
};

// One SQLite results database file (WAL mode): a connection (handle, prepare,
// last_insert_rowid, integrity_check) whose file is checked to be a trainscope results
// database of a schema this build reads. Move-only.
class ResultsDatabase : public profiler::SqliteConnection {
  public:
    ResultsDatabase(const std::filesystem::path& path, OpenMode mode);

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }
    // Runs SQL that returns no rows; a failure names the store (ResultsDatabase.cpp) as
    // the place.
    void exec(const char* sql) const;
    // The file's schema version: kSchemaVersion, or an older one still read (opened
    // read-only; a writable open upgrades it in place first).
    [[nodiscard]] int schema_version() const { return schema_version_; }
    // True when this open made the schema: the file was new (or empty), so nothing in it
    // predates this connection (NewFileJournal).
    [[nodiscard]] bool created() const { return created_; }

  private:
    void create_schema() const;
    void check_schema(OpenMode mode);
    void upgrade() const;
    void restore_wal() const;

    std::filesystem::path path_;
    int schema_version_ = kSchemaVersion;
    bool created_ = false;
};

// True when an SQLite failure with this result code on `database` means its disk is full:
// SQLITE_FULL, or an I/O error while the file system has no space left (WAL mode's
// shared-memory file fails that way).
bool is_disk_full(const std::filesystem::path& database, int sqlite_code);

}  // namespace trainscope::reports
