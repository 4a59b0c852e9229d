#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>

#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "reports/csv/RunsCsv.hpp"

namespace trainscope::reports {
namespace {

// Reads a CSV with Python's csv module (an independent reader) and returns one line per
// cell: "row|column|value".
std::string read_with_python(const std::filesystem::path& csv) {
    const std::string command =
        "python3 -c 'import csv,sys\n"
        "rows=list(csv.reader(open(sys.argv[1], newline=\"\", encoding=\"utf-8\")))\n"
        "h=rows[0]\n"
        "for i,r in enumerate(rows[1:]):\n"
        "  assert len(r)==len(h), (len(r), len(h))\n"
        "  for k,v in zip(h,r): print(f\"{i}|{k}|{v!r}\")\n' " +
        csv.string();
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    std::string out;
    std::array<char, 4096> buffer{};
    while (pipe && fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr)
        out += buffer.data();
    return out;
}

TEST(RunsCsv, ParsesBackWithTheSameValues) {
    testing::TempDir dir;
    RunRecord ok = testing::sample_run();
    ok.id = 1;
    ok.matrix_id = 1;
    RunRecord failed = ok;
    failed.id = 2;
    failed.status = RunStatus::Failed;
    failed.error = "out of memory, \"cudaMalloc\"\nat step 3";
    failed.axes.model = "=cmd|' /C calc'!A0";
    failed.metrics.clear();
    write_runs_csv({ok, failed}, dir / "runs.csv");
    const std::string cells = read_with_python(dir / "runs.csv");
    EXPECT_NE(cells.find("0|run_id|'1'"), std::string::npos) << cells;
    EXPECT_NE(cells.find("0|status|'ok'"), std::string::npos);
    EXPECT_NE(cells.find("0|precision|'fp32'"), std::string::npos);
    EXPECT_NE(cells.find("0|batch|'64'"), std::string::npos);
    EXPECT_NE(cells.find("0|learning_rate|'0.001'"), std::string::npos);
    EXPECT_NE(cells.find("0|images_per_s|'12345.678901234'"), std::string::npos) << cells;
    EXPECT_NE(cells.find("0|step_ms_median|'5.25'"), std::string::npos);
    EXPECT_NE(cells.find("0|test_accuracy|'0.8512'"), std::string::npos);
    EXPECT_NE(cells.find("0|peak_mem_bytes|'1048576'"), std::string::npos);
    EXPECT_NE(cells.find("0|final_loss|''"), std::string::npos);
    EXPECT_NE(cells.find("1|status|'failed'"), std::string::npos);
    EXPECT_NE(cells.find("1|error|'out of memory, \"cudaMalloc\"\\nat step 3'"), std::string::npos)
        << cells;
    EXPECT_NE(cells.find("1|model|\"'=cmd|' /C calc'!A0\""), std::string::npos) << cells;
    EXPECT_NE(cells.find("1|images_per_s|''"), std::string::npos);
}

TEST(RunsCsv, HeaderStartsWithIdentityThenAxesThenMetrics) {
    const auto table = runs_table({testing::sample_run()});
    ASSERT_FALSE(table.empty());
    const auto& header = table.front();
    ASSERT_GE(header.size(), 5u);
    EXPECT_EQ(header[0].text(), "matrix_id");
    EXPECT_EQ(header[1].text(), "run_id");
    EXPECT_EQ(header[2].text(), "status");
    EXPECT_EQ(header[5].text(), "model");
    bool has_units = false;
    for (const auto& h : header)
        has_units = has_units || h.text() == "step_ms_median";
    EXPECT_TRUE(has_units);
}

}  // namespace
}  // namespace trainscope::reports
