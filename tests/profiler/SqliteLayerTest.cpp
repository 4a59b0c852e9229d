// The one SQLite layer (profiler/sqlite/): the check macro, connection, statement and
// transaction each name the failing call, the place and SQLite's own words.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>

#include "profiler/sqlite/SqliteChangedBindings.hpp"
#include "profiler/sqlite/SqliteConnection.hpp"
#include "profiler/sqlite/SqliteError.hpp"
#include "profiler/sqlite/SqliteReadSnapshot.hpp"
#include "profiler/sqlite/SqliteTransaction.hpp"

namespace trainscope::profiler {
namespace {

std::filesystem::path fresh_file(const std::string& name) {
    const auto dir = std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "profiler_test_inputs";
    std::filesystem::create_directories(dir);
    std::filesystem::remove(dir / name);
    return dir / name;
}

int returns(int status) {
    return status;
}

TEST(SqliteCheck, FailureThrowsSqliteErrorWithCallPlaceAndSqlitesWords) {
    const int line = __LINE__ + 2;
    try {
        TS_SQLITE_CHECK(returns(SQLITE_FULL));
        FAIL() << "no SqliteError";
    } catch (const SqliteError& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.library(), "SQLite");
        EXPECT_EQ(e.call(), "returns(SQLITE_FULL)");
        EXPECT_NE(e.file().find("SqliteLayerTest.cpp"), std::string::npos) << e.file();
        EXPECT_EQ(e.line(), line);
        EXPECT_EQ(e.library_message(), sqlite3_errstr(SQLITE_FULL));
        EXPECT_EQ(e.code(), SQLITE_FULL);
        EXPECT_EQ(what.rfind("SQLite call `returns(SQLITE_FULL)` failed at ", 0), 0u) << what;
        EXPECT_NE(what.find("SqliteLayerTest.cpp:" + std::to_string(line)), std::string::npos)
            << what;
        EXPECT_NE(what.find("(SQLite code 13)"), std::string::npos) << what;
    }
}

TEST(SqliteCheck, RowAndDoneAreSuccessAndTheCallRunsOnce) {
    int calls = 0;
    EXPECT_NO_THROW(TS_SQLITE_CHECK((++calls, returns(SQLITE_OK))));
    EXPECT_NO_THROW(TS_SQLITE_CHECK(returns(SQLITE_ROW)));
    EXPECT_NO_THROW(TS_SQLITE_CHECK(returns(SQLITE_DONE)));
    EXPECT_EQ(calls, 1);
}

TEST(SqliteCheck, NoexceptTwinLogsAndYieldsWhetherTheCallSucceeded) {
    testing::internal::CaptureStderr();
    EXPECT_FALSE(TS_SQLITE_CHECK_NOEXCEPT(returns(SQLITE_IOERR)));
    EXPECT_TRUE(TS_SQLITE_CHECK_NOEXCEPT(returns(SQLITE_DONE)));
    const std::string log = testing::internal::GetCapturedStderr();
    EXPECT_NE(log.find("SQLite call `returns(SQLITE_IOERR)` failed at "), std::string::npos) << log;
    EXPECT_NE(log.find(sqlite3_errstr(SQLITE_IOERR)), std::string::npos) << log;
    EXPECT_EQ(log.find("SQLITE_DONE"), std::string::npos) << log;
}

TEST(SqliteConnection, OpeningAMissingFileReadOnlyNamesTheFile) {
    const auto path = fresh_file("missing.sqlite");
    try {
        SqliteConnection db(path, SQLITE_OPEN_READONLY);
        FAIL() << "opened " << path;
    } catch (const SqliteError& e) {
        EXPECT_NE(e.call().find("sqlite3_open_v2"), std::string::npos) << e.what();
        EXPECT_NE(e.call().find(path.string()), std::string::npos) << e.what();
        EXPECT_EQ(e.code(), SQLITE_CANTOPEN);
    }
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(SqliteConnection, ExecFailureNamesTheSqlTheCallersPlaceAndTheMessage) {
    const SqliteConnection db(fresh_file("exec.sqlite"),
                              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    const int line = __LINE__ + 2;
    try {
        db.exec("DELETE FROM no_such_table");
        FAIL() << "no SqliteError";
    } catch (const SqliteError& e) {
        EXPECT_EQ(e.call(), "sqlite3_exec(\"DELETE FROM no_such_table\")");
        EXPECT_NE(e.file().find("SqliteLayerTest.cpp"), std::string::npos) << e.file();
        EXPECT_EQ(e.line(), line);
        EXPECT_NE(e.library_message().find("no such table: no_such_table"), std::string::npos)
            << e.what();
        EXPECT_EQ(e.code(), SQLITE_ERROR);
    }
}

TEST(SqliteStatement, PrepareAndStepFailuresNameTheirSql) {
    const SqliteConnection db(fresh_file("stmt.sqlite"),
                              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    try {
        (void)db.prepare("SELECT x FROM nowhere");
        FAIL() << "no SqliteError";
    } catch (const SqliteError& e) {
        EXPECT_EQ(e.call(), "sqlite3_prepare_v2(\"SELECT x FROM nowhere\")");
        EXPECT_NE(e.library_message().find("no such table: nowhere"), std::string::npos)
            << e.what();
    }
    db.exec("CREATE TABLE t (x INTEGER NOT NULL)");
    const int prepared_at = __LINE__ + 1;
    auto insert = db.prepare("INSERT INTO t (x) VALUES (?1)");
    insert.bind(1, 7).run();
    try {
        insert.bind_null(1).run();
        FAIL() << "no SqliteError";
    } catch (const SqliteError& e) {
        EXPECT_EQ(e.call(), "sqlite3_step(\"INSERT INTO t (x) VALUES (?1)\")");
        // Where our code prepared the statement, not the wrapper's own line.
        EXPECT_NE(e.file().find("SqliteLayerTest.cpp"), std::string::npos) << e.file();
        EXPECT_EQ(e.line(), prepared_at);
        EXPECT_NE(e.library_message().find("NOT NULL"), std::string::npos) << e.what();
        EXPECT_EQ(e.code(), SQLITE_CONSTRAINT);
    }
}

TEST(SqliteStatement, LongSqlIsShortenedInTheCallText) {
    const std::string sql = "SELECT " + std::string(200, 'x');
    const std::string call = sqlite_call_text("sqlite3_exec", sql);
    EXPECT_EQ(call.size(), std::string("sqlite3_exec(\"\")").size() + 80) << call;
    EXPECT_NE(call.find("...\")"), std::string::npos) << call;
}

TEST(SqliteStatement, BindsAndReadsEveryColumnType) {
    const SqliteConnection db(fresh_file("types.sqlite"),
                              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    db.exec("CREATE TABLE t (i INTEGER, d REAL, s TEXT, n REAL)");
    db.prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4)")
        .bind(1, std::int64_t{1} << 40)
        .bind(2, 2.5)
        .bind(3, std::string("a\0b", 3))
        .bind(4, std::optional<double>{})
        .run();
    EXPECT_EQ(db.last_insert_rowid(), 1);
    auto read = db.prepare("SELECT i, d, s, n FROM t");
    ASSERT_TRUE(read.step());
    EXPECT_EQ(read.column_int64(0), std::int64_t{1} << 40);
    EXPECT_EQ(read.column_double(1), 2.5);
    EXPECT_EQ(read.column_text(2), std::string("a\0b", 3));
    EXPECT_TRUE(read.is_null(3));
    EXPECT_EQ(read.column_optional_double(3), std::nullopt);
    EXPECT_EQ(read.column_text(3), "");
    EXPECT_FALSE(read.step());
    EXPECT_TRUE(db.table_exists("t"));
    EXPECT_FALSE(db.table_exists("u"));
    EXPECT_EQ(db.integrity_check(), "ok");
}

TEST(SqliteTransaction, RollsBackUnlessCommitted) {
    const SqliteConnection db(fresh_file("tx.sqlite"), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    db.exec("CREATE TABLE t (x INTEGER)");
    {
        SqliteTransaction tx(db);
        db.exec("INSERT INTO t VALUES (1)");
    }
    {
        SqliteTransaction tx(db);
        db.exec("INSERT INTO t VALUES (2)");
        tx.commit();
    }
    auto rows = db.prepare("SELECT group_concat(x) FROM t");
    ASSERT_TRUE(rows.step());
    EXPECT_EQ(rows.column_text(0), "2");
}

std::int64_t count_rows(const SqliteConnection& db) {
    auto count = db.prepare("SELECT COUNT(*) FROM t");
    count.step();
    return count.column_int64(0);
}

// A reader in WAL mode keeps the state of its first read while another connection deletes
// rows and commits (as a resumed matrix replacing a run the reader exports), and sees the
// new state once the snapshot ends; temporary tables may be written meanwhile (the
// export's launches) on a read-only connection.
TEST(SqliteReadSnapshot, ReadsOneStateOfTheFileWhateverOthersCommit) {
    const auto file = fresh_file("snapshot.sqlite");
    const SqliteConnection writer(file, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    writer.exec("PRAGMA journal_mode = WAL");
    writer.exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)");
    const SqliteConnection reader(file, SQLITE_OPEN_READONLY);
    {
        const SqliteReadSnapshot snapshot(reader);
        EXPECT_EQ(count_rows(reader), 3);
        writer.exec("DELETE FROM t WHERE x > 1");
        reader.exec("CREATE TEMP TABLE seen AS SELECT x FROM t");
        EXPECT_EQ(count_rows(reader), 3);
        {
            const SqliteReadSnapshot inner(reader);  // inside one: nothing of its own
            EXPECT_EQ(count_rows(reader), 3);
        }
        EXPECT_EQ(count_rows(reader), 3);
    }
    EXPECT_EQ(count_rows(reader), 1);
    EXPECT_EQ(sqlite3_get_autocommit(reader.handle()), 1);
}

// Rows whose values repeat the previous row's in some parameters: the statement keeps
// those from its last run, so every row reads back as bound (a reset that cleared the
// bindings would store NULLs), and a value that changes type or only its sign is bound.
TEST(SqliteChangedBindings, RowsReadBackAsBoundWhetherAValueRepeatsOrChanges) {
    const SqliteConnection db(fresh_file("changed.sqlite"),
                              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    db.exec("CREATE TABLE t (a, b, c)");
    auto insert = db.prepare("INSERT INTO t (a, b, c) VALUES (?1, ?2, ?3)");
    SqliteChangedBindings bindings(insert, 3);
    struct Row {
        std::int64_t a;
        double b;
        bool c_is_real;
        std::int64_t c;
    };
    // 0 and 0.0 have the same bits: the type is part of what repeats.
    const Row rows[] = {{7, 0.0, false, 1}, {7, -0.0, false, 1}, {8, -0.0, true, 0},
                        {8, 2.5, true, 0},  {8, 2.5, false, 0},  {-1, 2.5, false, 1}};
    for (const Row& r : rows) {
        bindings.bind(1, r.a).bind(2, r.b);
        if (r.c_is_real)
            bindings.bind(3, static_cast<double>(r.c));
        else
            bindings.bind(3, r.c);
        bindings.run();
    }
    auto read = db.prepare("SELECT a, b, typeof(c), c FROM t ORDER BY rowid");
    for (const Row& r : rows) {
        ASSERT_TRUE(read.step());
        EXPECT_EQ(read.column_int64(0), r.a);
        EXPECT_EQ(std::signbit(read.column_double(1)), std::signbit(r.b));
        EXPECT_EQ(read.column_double(1), r.b);
        EXPECT_EQ(read.column_text(2), r.c_is_real ? "real" : "integer");
        EXPECT_EQ(read.column_int64(3), r.c);
    }
    EXPECT_FALSE(read.step());
}

}  // namespace
}  // namespace trainscope::profiler
