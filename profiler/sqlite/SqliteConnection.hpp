#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "common/SourcePlace.hpp"
#include "profiler/sqlite/SqliteStatement.hpp"

struct sqlite3;

namespace trainscope::profiler {

// One SQLite connection, the only RAII layer over SQLite in trainscope: the Nsight
// Systems importer reads through it and the results store (reports::ResultsDatabase)
// is one. Move-only owner of the sqlite3*; every failure throws SqliteError.
class SqliteConnection {
  public:
    // Opens `path` with sqlite3_open_v2 `flags` (SQLITE_OPEN_READONLY, ...).
    SqliteConnection(const std::filesystem::path& path, int flags);

    [[nodiscard]] sqlite3* handle() const { return db_.get(); }
    [[nodiscard]] SqliteStatement prepare(std::string_view sql,
                                          SourcePlace where = SourcePlace::here()) const;
    // Runs SQL that returns no rows; a failure names the caller's file:line.
    void exec(std::string_view sql, SourcePlace where = SourcePlace::here()) const;
    [[nodiscard]] std::int64_t last_insert_rowid() const;
    [[nodiscard]] bool table_exists(std::string_view table) const;
    // PRAGMA integrity_check's verdict: "ok" when the file is sound.
    [[nodiscard]] std::string integrity_check() const;

  protected:
    // For a subclass that checks its path before opening: closed until open().
    SqliteConnection() = default;
    void open(const std::filesystem::path& path, int flags);

  private:
    struct Closer {
        using pointer = sqlite3*;
        void operator()(sqlite3* db) const noexcept;
    };
    std::unique_ptr<sqlite3, Closer> db_;
};

}  // namespace trainscope::profiler
