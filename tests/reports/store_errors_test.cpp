#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>

#include "TempDir.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/SqliteError.hpp"

namespace trainscope::reports {
namespace {

std::string open_error(const std::filesystem::path& path, OpenMode mode) {
    try {
        ResultsDatabase db(path, mode);
    } catch (const StoreError& e) {
        return e.what();
    }
    return "";
}

TEST(ResultsStoreErrors, MissingFileNamesThePath) {
    testing::TempDir dir;
    const auto message = open_error(dir / "nope.db", OpenMode::ReadOnly);
    EXPECT_NE(message.find("nope.db"), std::string::npos) << message;
    EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
    EXPECT_FALSE(std::filesystem::exists(dir / "nope.db"));
}

TEST(ResultsStoreErrors, TextFileIsNotADatabase) {
    testing::TempDir dir;
    std::ofstream(dir / "notes.db") << "these are not the results you are looking for\n";
    const auto message = open_error(dir / "notes.db", OpenMode::ReadOnly);
    EXPECT_NE(message.find("not an SQLite database"), std::string::npos) << message;
}

TEST(ResultsStoreErrors, ForeignSqliteFileIsNeverWritten) {
    testing::TempDir dir;
    const auto path = dir / "other.sqlite";
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, "CREATE TABLE t (x); INSERT INTO t VALUES (1);", nullptr, nullptr,
                           nullptr),
              SQLITE_OK);
    sqlite3_close(raw);
    const auto before = std::filesystem::file_size(path);
    EXPECT_NE(open_error(path, OpenMode::CreateOrOpen).find("another program"), std::string::npos);
    EXPECT_NE(open_error(path, OpenMode::ReadOnly).find("not a trainscope results database"),
              std::string::npos);
    EXPECT_EQ(std::filesystem::file_size(path), before);
}

TEST(ResultsStoreErrors, UnknownRunIdIsNamed) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    try {
        load_run(db, 42, {});
        FAIL() << "expected StoreError";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("run 42"), std::string::npos);
    }
}

TEST(ResultsStoreErrors, SqliteCheckCarriesCallSiteAndMessage) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    try {
        db.exec("SELECT * FROM no_such_table");
        FAIL() << "expected SqliteError";
    } catch (const SqliteError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("sqlite3_exec"), std::string::npos) << message;
        EXPECT_NE(message.find("ResultsDatabase.cpp:"), std::string::npos) << message;
        EXPECT_NE(message.find("no such table"), std::string::npos) << message;
        EXPECT_EQ(e.code(), SQLITE_ERROR);
    }
}

}  // namespace
}  // namespace trainscope::reports
