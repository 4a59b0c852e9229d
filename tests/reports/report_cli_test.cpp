#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "Popen.hpp"
#include "ReportFixture.hpp"
#include "TempDir.hpp"

namespace trainscope::reports {
namespace {

// `trainscope report` end to end on the fixed database: the command line maps bad input
// to one line and exit code 2 and writes every file.
class ReportCli : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!std::filesystem::exists(binary_))
            GTEST_SKIP() << binary_ << " is not built (ninja -C build trainscope)";
        testing::write_report_database(dir_ / "results.db");
    }
    testing::CommandResult report(const std::string& args) const {
        return testing::run_command(testing::shell_quote(binary_.string()) + " report " +
                                    testing::shell_quote((dir_ / "results.db").string()) + " " +
                                    args + " 2>&1");
    }
    static void expect_one_line_usage_error(const testing::CommandResult& r,
                                            const std::string& names) {
        EXPECT_EQ(r.exit_code, 2) << r.output;
        EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
        EXPECT_NE(r.output.find(names), std::string::npos) << r.output;
    }

    std::filesystem::path binary_ =
        std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "bin" / "trainscope";
    testing::TempDir dir_;
};

TEST_F(ReportCli, WritesEveryCsvAndTheHtmlSummary) {
    const auto out = dir_ / "out";
    const auto r = report("--csv " + testing::shell_quote(out.string()) + " --html " +
                          testing::shell_quote((dir_ / "report.html").string()));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    for (const char* name : {"runs.csv", "kernels.csv", "steps.csv", "nvtx.csv", "ops.csv",
                             "matrix.csv", "memory.csv"}) {
        EXPECT_TRUE(std::filesystem::exists(out / name)) << name;
        EXPECT_FALSE(std::filesystem::exists(out / (std::string(name) + ".tmp"))) << name;
    }
    EXPECT_TRUE(std::filesystem::exists(dir_ / "report.html"));
}

TEST_F(ReportCli, FormatPrintsOnlyTheTableOnStdout) {
    const auto r = testing::run_command(
        testing::shell_quote(binary_.string()) + " report " +
        testing::shell_quote((dir_ / "results.db").string()) +
        " --format json --table matrix --rows precision --cols batch 2>/dev/null | "
        "python3 -c 'import json,sys; rows=json.load(sys.stdin); print(len(rows), "
        "sorted(rows[0].keys())[0])'");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output, "2 128\n");  // rows fp16, fp32; columns 32, 64, 128
}

TEST_F(ReportCli, BadInputIsOneLineWithExitCode2) {
    expect_one_line_usage_error(report("--format table --run 99"), "run 99");
    expect_one_line_usage_error(report("--format table --table matrix --metric imgs"), "'imgs'");
    expect_one_line_usage_error(report("--format table --table matrix --cols prec"), "'prec'");
    expect_one_line_usage_error(report("--format yaml"), "'yaml'");
    expect_one_line_usage_error(report("--format csv --table kernel"), "'kernel'");
    expect_one_line_usage_error(report(""), "--csv DIR");
    const auto file = dir_ / "a-file";
    testing::run_command("touch " + testing::shell_quote(file.string()));
    expect_one_line_usage_error(report("--csv " + testing::shell_quote(file.string())),
                                file.string());
    const auto missing =
        testing::run_command(testing::shell_quote(binary_.string()) + " report " +
                             testing::shell_quote((dir_ / "none.db").string()) + " --csv " +
                             testing::shell_quote(dir_.path().string()) + " 2>&1");
    expect_one_line_usage_error(missing, "none.db");
}

}  // namespace
}  // namespace trainscope::reports
