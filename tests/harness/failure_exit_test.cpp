// The CLI's top-level verdict on an exception: input error (2), library or system fault
// (1), bug (70), each as one line that says which.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "harness/cli/FailureExit.hpp"
#include "harness/cli/UsageError.hpp"
#include "profiler/formats/TraceFormatError.hpp"
#include "profiler/sqlite/SqliteConnection.hpp"
#include "reports/csv/MatrixPivot.hpp"
#include "reports/store/SqliteError.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::harness {
namespace {

struct Verdict {
    int exit_code = -1;
    std::string line;
};

// Runs `fail`, hands what it throws to the CLI's handler and returns what the user sees.
Verdict verdict_on(const std::function<void()>& fail) {
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::tmpfile(), &std::fclose);
    Verdict v;
    try {
        fail();
        ADD_FAILURE() << "nothing thrown";
    } catch (...) {
        v.exit_code = report_current_exception(out.get());
    }
    std::rewind(out.get());
    char buffer[4096] = {};
    const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, out.get());
    v.line.assign(buffer, n);
    return v;
}

TEST(FailureExit, EveryInputErrorExitsTwoWithItsMessage) {
    const std::function<void()> inputs[] = {
        [] { throw UsageError("--steps must be positive"); },
        [] { throw workloads::ConfigError("unknown model 'alexnet'"); },
        [] { throw reports::StoreError("'x.db' is not an SQLite database"); },
        [] { throw reports::PivotError("unknown metric 'speed'"); },
        [] { throw profiler::TraceFormatError("t.json", "not JSON"); },
    };
    for (const auto& input : inputs) {
        const Verdict v = verdict_on(input);
        EXPECT_EQ(v.exit_code, kExitInputError) << v.line;
        EXPECT_EQ(v.line.rfind("trainscope: error: ", 0), 0u) << v.line;
        EXPECT_EQ(std::count(v.line.begin(), v.line.end(), '\n'), 1) << v.line;
    }
}

TEST(FailureExit, ALibraryFaultExitsOneNamingTheLibraryCallAndPlace) {
    const auto path = std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "failure_exit.sqlite";
    std::filesystem::remove(path);
    const Verdict v = verdict_on([&] {
        const profiler::SqliteConnection db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        db.exec("DROP TABLE runs");
    });
    std::filesystem::remove(path);
    EXPECT_EQ(v.exit_code, kExitFault) << v.line;
    EXPECT_EQ(v.line.rfind("trainscope: failed: SQLite call `sqlite3_exec(\"DROP TABLE runs\")` "
                           "failed at ",
                           0),
              0u)
        << v.line;
    EXPECT_NE(v.line.find("failure_exit_test.cpp:"), std::string::npos) << v.line;
    EXPECT_NE(v.line.find("no such table: runs"), std::string::npos) << v.line;
    EXPECT_NE(v.line.find("(SQLite code 1)"), std::string::npos) << v.line;
}

TEST(FailureExit, TheMachineFailingExitsOne) {
    const Verdict disk = verdict_on([] {
        throw std::filesystem::filesystem_error(
            "cannot rename", "a", "b", std::make_error_code(std::errc::no_space_on_device));
    });
    EXPECT_EQ(disk.exit_code, kExitFault) << disk.line;
    EXPECT_EQ(disk.line.rfind("trainscope: failed: ", 0), 0u) << disk.line;
    EXPECT_NE(disk.line.find("cannot rename"), std::string::npos) << disk.line;

    const Verdict memory = verdict_on([] { throw std::bad_alloc(); });
    EXPECT_EQ(memory.exit_code, kExitFault) << memory.line;
    EXPECT_EQ(memory.line, "trainscope: failed: out of memory\n");
}

TEST(FailureExit, ABugExitsSeventyAndSaysSo) {
    const Verdict logic =
        verdict_on([] { throw std::out_of_range("string id 7 is not in the table"); });
    EXPECT_EQ(logic.exit_code, kExitInternalError) << logic.line;
    EXPECT_EQ(logic.line.rfind("trainscope: internal error (a bug): string id 7", 0), 0u)
        << logic.line;
    EXPECT_NE(logic.line.find("please report it"), std::string::npos) << logic.line;

    const Verdict odd = verdict_on([] { throw 42; });
    EXPECT_EQ(odd.exit_code, kExitInternalError) << odd.line;
    EXPECT_EQ(odd.line.rfind("trainscope: internal error (a bug): ", 0), 0u) << odd.line;

    struct Unusual : std::exception {
        const char* what() const noexcept override { return "neither runtime nor logic"; }
    };
    const Verdict other = verdict_on([] { throw Unusual(); });
    EXPECT_EQ(other.exit_code, kExitInternalError) << other.line;
    EXPECT_NE(other.line.find("neither runtime nor logic"), std::string::npos) << other.line;
}

}  // namespace
}  // namespace trainscope::harness
