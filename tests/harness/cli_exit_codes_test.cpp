// The three ways a command ends on an error, seen from outside: exit 2 for input,
// exit 1 for a library fault naming the library, call and place.
// (A bug's exit 70 has no trigger in a correct build; failure_exit_test covers it.)
#include <gtest/gtest.h>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

TEST(CliExitCodes, AnSqliteFaultExitsOneNamingSqliteTheCallAndThePlace) {
    testing::TempDir dir;
    const auto db_path = dir / "r.db";
    {
        // A results database whose runs table has gone: SQLite refuses the query.
        const reports::ResultsDatabase db(db_path, reports::OpenMode::CreateOrOpen);
        db.exec("PRAGMA foreign_keys = OFF");
        db.exec("DROP TABLE runs");
    }
    const auto r = run_trainscope("report " + db_path.string() + " --format csv");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(r.output.rfind("trainscope: failed: SQLite call `", 0), 0u) << r.output;
    EXPECT_NE(r.output.find("no such table: runs"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(".cpp:"), std::string::npos) << "names the place: " << r.output;
    EXPECT_NE(r.output.find("(SQLite code 1)"), std::string::npos) << r.output;
}

TEST(CliExitCodes, AnInputErrorExitsTwoWithoutLibraryWords) {
    testing::TempDir dir;
    const auto r = run_trainscope("report " + (dir / "none.db").string() + " --format csv");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(r.output.rfind("trainscope: error: ", 0), 0u) << r.output;
    EXPECT_EQ(r.output.find("SQLite call"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace trainscope
