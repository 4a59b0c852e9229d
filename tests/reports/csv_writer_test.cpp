#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "TempDir.hpp"
#include "reports/csv/CsvWriter.hpp"

namespace trainscope::reports {
namespace {

TEST(CsvField, QuotesPerRfc4180) {
    EXPECT_EQ(csv_field(CsvCell("plain")), "plain");
    EXPECT_EQ(csv_field(CsvCell("a,b")), "\"a,b\"");
    EXPECT_EQ(csv_field(CsvCell("say \"hi\"")), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csv_field(CsvCell("two\nlines")), "\"two\nlines\"");
    EXPECT_EQ(csv_field(CsvCell("Größe µs")), "Größe µs");
}

TEST(CsvField, DefusesSpreadsheetFormulasButNotNumbers) {
    EXPECT_EQ(csv_field(CsvCell("=HYPERLINK(\"x\")")), "\"'=HYPERLINK(\"\"x\"\")\"");
    EXPECT_EQ(csv_field(CsvCell("+1+2")), "'+1+2");
    EXPECT_EQ(csv_field(CsvCell("-cmd")), "'-cmd");
    EXPECT_EQ(csv_field(CsvCell("@SUM(A1)")), "'@SUM(A1)");
    EXPECT_EQ(csv_field(CsvCell(-1.5)), "-1.5");
    EXPECT_EQ(csv_field(CsvCell(std::int64_t{-42})), "-42");
}

TEST(CsvField, NumbersReadBackExactly) {
    for (double v : {0.1, 1.0 / 3.0, 12345.678901234, 1e-300, 6.02214076e23}) {
        EXPECT_EQ(std::stod(CsvCell(v).text()), v);
    }
    EXPECT_EQ(CsvCell(std::optional<double>{}).text(), "");
}

TEST(CsvFileWriter, WritesWholeFileOnlyOnCommit) {
    testing::TempDir dir;
    const auto path = dir / "out.csv";
    std::ofstream(path) << "old content\r\n";
    {
        CsvFileWriter writer(path);
        writer.write_row({"a", "b"});
        // destroyed without commit, as when an exception unwinds
    }
    std::stringstream old;
    old << std::ifstream(path).rdbuf();
    EXPECT_EQ(old.str(), "old content\r\n");
    EXPECT_FALSE(std::filesystem::exists(dir / "out.csv.tmp"));
    {
        CsvFileWriter writer(path);
        writer.write_row({"a", 1});
        writer.commit();
    }
    std::stringstream now;
    now << std::ifstream(path).rdbuf();
    EXPECT_EQ(now.str(), "a,1\r\n");
}

}  // namespace
}  // namespace trainscope::reports
