#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

#include "profiler/formats/NsysSqliteImporter.hpp"
#include "profiler/formats/TraceFormatError.hpp"
#include "tests/fuzz/FuzzInputs.hpp"
#include "tests/fuzz/ScratchFile.hpp"
#include "tests/fuzz/TraceInvariants.hpp"

namespace trainscope::fuzz {

namespace {

constexpr char kSqliteMagic[] = "SQLite format 3";

// The script may only build tables and rows: no ATTACH (it would write other files), no
// PRAGMA (journal and schema tricks are SQLite's business, not the importer's).
int only_this_database(void*, int action, const char*, const char*, const char*, const char*) {
    return action == SQLITE_ATTACH || action == SQLITE_DETACH || action == SQLITE_PRAGMA
               ? SQLITE_DENY
               : SQLITE_OK;
}

// Stops runaway statements (recursive CTEs, huge joins) after a bounded amount of work.
int budget_spent(void* steps) {
    return ++*static_cast<int*>(steps) > 20000 ? 1 : 0;
}

// Runs an SQL script statement by statement, skipping the ones SQLite refuses, so that a
// mutated script still builds most of its tables.
void build_database(const std::filesystem::path& file, const std::string& script) {
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
    sqlite3* db = nullptr;
    if (sqlite3_open(file.c_str(), &db) != SQLITE_OK) {
        std::fprintf(stderr, "fuzz: cannot create %s\n", file.c_str());
        std::abort();
    }
    // A scratch file needs no durability: without a journal and fsync, building it costs
    // CPU time instead of a disk flush per input (which bounded the executions per second).
    sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF", nullptr, nullptr,
                 nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_set_authorizer(db, only_this_database, nullptr);
    int steps = 0;
    sqlite3_progress_handler(db, 1000, budget_spent, &steps);
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    const char* sql = script.c_str();
    const char* end = sql + script.size();
    while (sql < end && *sql != '\0') {
        sqlite3_stmt* statement = nullptr;
        const char* tail = nullptr;
        const int status =
            sqlite3_prepare_v2(db, sql, static_cast<int>(end - sql), &statement, &tail);
        if (status == SQLITE_OK && statement != nullptr) {
            while (sqlite3_step(statement) == SQLITE_ROW) {
            }
        }
        sqlite3_finalize(statement);
        if (tail == nullptr || tail <= sql) {
            // A statement SQLite could not even delimit: skip to the next ';'.
            const char* next = static_cast<const char*>(std::memchr(sql, ';', end - sql));
            if (next == nullptr)
                break;
            tail = next + 1;
        }
        sql = tail;
    }
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
}

}  // namespace

void nsys_sqlite_input(Bytes data) {
    static ScratchFile file(".sqlite");
    const bool raw_file = data.size() >= sizeof kSqliteMagic &&
                          std::memcmp(data.data(), kSqliteMagic, sizeof kSqliteMagic) == 0;
    if (raw_file) {
        file.write(data);
    } else {
        build_database(file.path(),
                       std::string(reinterpret_cast<const char*>(data.data()), data.size()));
    }
    try {
        check_trace_invariants(profiler::import_nsys_sqlite(file.path()));
    } catch (const profiler::TraceFormatError&) {
        // the documented answer to a file that is not an Nsight Systems export
    }
}

}  // namespace trainscope::fuzz
