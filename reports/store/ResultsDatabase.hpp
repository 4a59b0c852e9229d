#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>

#include "reports/store/Statement.hpp"

struct sqlite3;

namespace trainscope::reports {

// The results database schema version this build reads and writes (docs/formats.md).
inline constexpr int kSchemaVersion = 2;
// The oldest version still read: 1 lacks steps.data_ns, which reads as absent.
inline constexpr int kOldestReadableSchemaVersion = 1;

enum class OpenMode {
    ReadOnly,      // the file must exist and be a trainscope results database
    CreateOrOpen,  // creates the file and the schema if needed
};

// One SQLite results database file (WAL mode). Move-only owner of the connection.
class ResultsDatabase {
  public:
    ResultsDatabase(const std::filesystem::path& path, OpenMode mode);

    [[nodiscard]] sqlite3* handle() const { return db_.get(); }
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }
    [[nodiscard]] Statement prepare(std::string_view sql) const;
    void exec(const char* sql) const;
    [[nodiscard]] std::int64_t last_insert_rowid() const;
    // PRAGMA integrity_check's verdict: "ok" when the file is sound.
    [[nodiscard]] std::string integrity_check() const;
    // The file's schema version: kSchemaVersion, or an older one still read (opened
    // read-only; a writable open upgrades it in place first).
    [[nodiscard]] int schema_version() const { return schema_version_; }

  private:
    struct Closer {
        void operator()(sqlite3* db) const noexcept;
    };
    void create_schema() const;
    void check_schema(OpenMode mode);
    void upgrade_from_1() const;

    std::filesystem::path path_;
    int schema_version_ = kSchemaVersion;
    std::unique_ptr<sqlite3, Closer> db_;
};

// BEGIN IMMEDIATE on construction, ROLLBACK on destruction unless commit() was called:
// a run is written whole or not at all. Inside an open transaction it is a savepoint of
// it, so a caller can read and write under one write lock (collecting a cluster's results).
class Transaction {
  public:
    explicit Transaction(const ResultsDatabase& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

  private:
    const ResultsDatabase& db_;
    bool nested_ = false;
    bool done_ = false;
};

}  // namespace trainscope::reports
