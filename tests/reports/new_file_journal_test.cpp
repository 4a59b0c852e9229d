// NewFileJournal: a first write into a new results database goes through a rollback
// journal and the file ends in WAL mode; a file that existed keeps WAL mode; a write
// killed half-way into a new file leaves the file as it was before it, and a file left in
// rollback mode is in WAL mode again after a writable open.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "reports/store/NewFileJournal.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"

namespace trainscope::reports {
namespace {

std::string journal_mode(const ResultsDatabase& db) {
    Statement mode = db.prepare("PRAGMA journal_mode");
    EXPECT_TRUE(mode.step());
    return mode.column_text(0);
}

std::int64_t synchronous(const ResultsDatabase& db) {
    Statement mode = db.prepare("PRAGMA synchronous");
    EXPECT_TRUE(mode.step());
    return mode.column_int64(0);
}

std::int64_t count(const ResultsDatabase& db, const char* table) {
    Statement rows = db.prepare(std::string("SELECT count(*) FROM ") + table);
    EXPECT_TRUE(rows.step());
    return rows.column_int64(0);
}

TEST(NewFileJournal, ANewFileIsWrittenThroughARollbackJournalAndEndsInWalMode) {
    testing::TempDir dir;
    const auto path = dir / "new.db";
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        EXPECT_TRUE(db.created());
        EXPECT_EQ(synchronous(db), 2);  // FULL
        NewFileJournal journal(db);
        EXPECT_EQ(journal_mode(db), "delete");
        // EXTRA: the folder is synced after the journal's unlink, the commit.
        EXPECT_EQ(synchronous(db), 3);
        std::vector<RunRecord> runs{testing::sample_run()};
        RunWriter(db).create_matrix_with_runs({"import", "trainscope import", "0.1.0", "abc"},
                                              runs);
        journal.done();
        EXPECT_EQ(journal_mode(db), "wal");
        EXPECT_EQ(synchronous(db), 2);
    }
    const ResultsDatabase db(path, OpenMode::ReadOnly);
    EXPECT_EQ(journal_mode(db), "wal");
    EXPECT_EQ(count(db, "runs"), 1);
    EXPECT_EQ(db.integrity_check(), "ok");
}

TEST(NewFileJournal, AFileThatExistedKeepsWalMode) {
    testing::TempDir dir;
    const auto path = dir / "old.db";
    { const ResultsDatabase created(path, OpenMode::CreateOrOpen); }
    ResultsDatabase db(path, OpenMode::CreateOrOpen);
    EXPECT_FALSE(db.created());
    NewFileJournal journal(db);
    EXPECT_EQ(journal_mode(db), "wal");
    journal.done();
    EXPECT_EQ(journal_mode(db), "wal");
}

// A child process writes far more than SQLite's page cache holds (so pages reach the file
// before the commit) and is killed before it commits: the next open rolls the file back.
TEST(NewFileJournal, AWriteKilledBeforeItsCommitLeavesNothing) {
    testing::TempDir dir;
    const auto path = dir / "killed.db";
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        NewFileJournal journal(db);
        Transaction tx(db);
        auto insert = db.prepare(
            "INSERT INTO matrices (name, created_utc, definition) VALUES ('m', 'now', ?1)");
        const std::string definition(8192, 'x');
        for (int i = 0; i < 2000; ++i)  // 16 MB
            insert.bind(1, definition).run();
        _exit(std::filesystem::exists(path.string() + "-journal") ? 0 : 3);  // no commit
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0) << "the child wrote without a rollback journal";
    EXPECT_GT(std::filesystem::file_size(path), 8u << 20) << "the pages were not spilled";
    const ResultsDatabase db(path, OpenMode::CreateOrOpen);
    EXPECT_EQ(count(db, "matrices"), 0);
    EXPECT_EQ(db.integrity_check(), "ok");
    EXPECT_EQ(journal_mode(db), "wal") << "a writable open left the file in rollback mode";
}

// An import stopped between its commit and done() (a kill, a crash) leaves its file in
// rollback mode: the next writable open puts it back in WAL mode, with what was committed.
TEST(NewFileJournal, AFileLeftInRollbackModeIsWalAgainAfterAWritableOpen) {
    testing::TempDir dir;
    const auto path = dir / "left.db";
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        NewFileJournal journal(db);
        std::vector<RunRecord> runs{testing::sample_run()};
        RunWriter(db).create_matrix_with_runs({"import", "trainscope import", "0.1.0", "abc"},
                                              runs);
        EXPECT_EQ(journal_mode(db), "delete");  // no done()
    }
    {
        const ResultsDatabase db(path, OpenMode::ReadOnly);
        EXPECT_EQ(journal_mode(db), "delete");  // a reader changes nothing
    }
    const ResultsDatabase db(path, OpenMode::CreateOrOpen);
    EXPECT_FALSE(db.created());
    EXPECT_EQ(journal_mode(db), "wal");
    EXPECT_EQ(count(db, "runs"), 1);
    EXPECT_EQ(db.integrity_check(), "ok");
}

}  // namespace
}  // namespace trainscope::reports
