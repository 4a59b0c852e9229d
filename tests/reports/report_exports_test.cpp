#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>

#include "Popen.hpp"
#include "ReportFixture.hpp"
#include "RowidGap.hpp"
#include "TempDir.hpp"
#include "reports/csv/MatrixPivot.hpp"
#include "reports/csv/ReportTables.hpp"
#include "reports/csv/TableRenderer.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope::reports {
namespace {

const std::filesystem::path kGoldenDir =
    std::filesystem::path(TRAINSCOPE_SOURCE_DIR) / "tests" / "reports" / "golden";

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The fixed database, loaded as `trainscope report` loads it.
class ReportExports : public ::testing::Test {
  protected:
    void SetUp() override {
        testing::write_report_database(dir_ / "results.db");
        db_.emplace(dir_ / "results.db", OpenMode::ReadOnly);
        RunParts parts;
        parts.steps = true;
        runs_ = load_runs(*db_, {}, parts);
    }
    ReportTables tables(const PivotSpec& pivot = {}) const {
        ReportSelection all;
        all.breakdowns = true;
        return build_report_tables(*db_, runs_, all, pivot);
    }

    testing::TempDir dir_;
    std::optional<ResultsDatabase> db_;
    std::vector<RunRecord> runs_;
};

TEST_F(ReportExports, CsvFilesMatchTheGoldenFilesByteForByte) {
    const ReportTables t = tables();
    const bool update = std::getenv("TRAINSCOPE_UPDATE_GOLDEN") != nullptr;
    for (const auto& [name, table] :
         std::vector<std::pair<std::string, const CsvTable*>>{{"runs.csv", &t.runs},
                                                              {"kernels.csv", &t.kernels},
                                                              {"steps.csv", &t.steps},
                                                              {"nvtx.csv", &t.nvtx},
                                                              {"ops.csv", &t.ops},
                                                              {"matrix.csv", &t.matrix},
                                                              {"memory.csv", &t.memory}}) {
        write_csv_table(*table, dir_ / name);
        EXPECT_FALSE(std::filesystem::exists(dir_ / (name + ".tmp")));
        if (update)
            std::filesystem::copy_file(dir_ / name, kGoldenDir / name,
                                       std::filesystem::copy_options::overwrite_existing);
        EXPECT_EQ(read_file(dir_ / name), read_file(kGoldenDir / name))
            << name << " differs from " << (kGoldenDir / name)
            << "; if the change is intended, bump kCsvFormatVersion where the meaning changed, "
               "document it and rerun with TRAINSCOPE_UPDATE_GOLDEN=1";
    }
}

TEST_F(ReportExports, KernelNamesRoundTripThroughAnIndependentCsvReader) {
    const ReportTables t = tables();
    write_csv_table(t.kernels, dir_ / "kernels.csv");
    const auto cells = testing::read_csv_with_python((dir_ / "kernels.csv").string());
    ASSERT_EQ(cells.exit_code, 0) << cells.output;
    const std::string& out = cells.output;
    // Run 1 (scale 1): the convolution ran 4000 and 5000 ns, the longest with grid 129.
    EXPECT_NE(out.find("0|kernel|'implicit_convolve_sgemm'"), std::string::npos) << out;
    EXPECT_NE(out.find("0|kernel_short|'implicit_convolve_sgemm'"), std::string::npos) << out;
    EXPECT_NE(out.find("0|count|'2'"), std::string::npos) << out;
    EXPECT_NE(out.find("0|total_us|'9'"), std::string::npos) << out;
    EXPECT_NE(out.find("0|mean_us|'4.5'"), std::string::npos) << out;
    EXPECT_NE(out.find("0|max_us|'5'"), std::string::npos) << out;
    EXPECT_NE(out.find("0|grid_x|'129'"), std::string::npos) << out;
    EXPECT_NE(out.find("0|category|'convolution'"), std::string::npos) << out;
    // Awkward names come back whole; formulas come back defused with one apostrophe.
    EXPECT_NE(out.find("|kernel|'conv2d<float, 3>::\"fwd\"\\nüber→λ'"), std::string::npos) << out;
    EXPECT_NE(out.find("|kernel|\"'=SUM(A1:A9)+cmd|' /C calc'!A0\""), std::string::npos) << out;
    EXPECT_NE(out.find("|kernel|\"'-sgemm_tensorop_128x128\""), std::string::npos) << out;
    EXPECT_NE(out.find("|category|'memcpy/memset'"), std::string::npos) << out;
}

TEST_F(ReportExports, ErrorsAndNumbersRoundTripInRunsCsv) {
    const ReportTables t = tables();
    write_csv_table(t.runs, dir_ / "runs.csv");
    const auto cells = testing::read_csv_with_python((dir_ / "runs.csv").string());
    ASSERT_EQ(cells.exit_code, 0) << cells.output;
    const std::string& out = cells.output;
    EXPECT_NE(out.find("5|status|'failed'"), std::string::npos) << out;
    EXPECT_NE(out.find("5|error|'out of memory, \"cudaMalloc\"\\nat step 3 — Ünïcode'"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("0|z_custom_metric|'-1.5'"), std::string::npos) << out;  // not defused
    const RunRecord first = testing::report_run("fp32", 32, "device");
    EXPECT_NE(out.find("0|step_ms_ci_low|'" +
                       CsvCell(first.find_metric("step_ms_ci_low")->value).text() + "'"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("0|images_per_s|'" +
                       CsvCell(first.find_metric("images_per_s")->value).text() + "'"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("0|tracing_overhead_pct|'3.25'"), std::string::npos) << out;
    EXPECT_NE(out.find("0|device_name|'NVIDIA Test GPU'"), std::string::npos) << out;
}

// memory.csv: each run's classes at its peak sum to the run's peak_mem_bytes, and the
// untraced run has the breakdown without a moment.
TEST_F(ReportExports, MemoryRowsSumToThePeakOfEachRun) {
    const ReportTables t = tables();
    // Version 7 added the rank: a multi-rank run has each rank's peak.
    ASSERT_EQ(t.memory.front().size(), 11u);
    EXPECT_EQ(t.memory.front()[2].text(), "class");
    EXPECT_EQ(t.memory.front()[10].text(), "rank");
    std::map<std::string, std::int64_t> sums;
    std::map<std::string, std::string> peaks;
    std::map<std::string, std::string> moments;
    for (std::size_t r = 1; r < t.memory.size(); ++r) {
        const auto& row = t.memory[r];
        sums[row[1].text()] += std::stoll(row[3].text());
        peaks[row[1].text()] = row[6].text();
        moments[row[1].text()] = row[7].text() + "|" + row[9].text();
    }
    ASSERT_EQ(sums.size(), 5u) << "every run but the failed one";
    for (const RunRecord& run : runs_) {
        const std::string id = std::to_string(run.id);
        if (run.status == RunStatus::Failed) {
            EXPECT_EQ(sums.count(id), 0u);
            continue;
        }
        EXPECT_EQ(sums[id], static_cast<std::int64_t>(run.find_metric("peak_mem_bytes")->value));
        EXPECT_EQ(peaks[id], std::to_string(sums[id]));
        const double t_ms = 2.5 * static_cast<double>(*run.axes.batch / 32);
        EXPECT_EQ(moments[id],
                  run.axes.trace_level == "off" ? "|" : CsvCell(t_ms).text() + "|relu_bwd");
    }
}

// A caller names the tables it wants; nothing() plus one name builds that table alone.
TEST_F(ReportExports, ASelectionBuildsExactlyTheTablesItNames) {
    ReportSelection memory_only = ReportSelection::nothing();
    memory_only.memory = true;
    const ReportTables t = build_report_tables(*db_, runs_, memory_only, {});
    EXPECT_FALSE(t.memory.empty());
    for (const CsvTable* other : {&t.runs, &t.kernels, &t.steps, &t.nvtx, &t.ops, &t.matrix})
        EXPECT_TRUE(other->empty());
    EXPECT_TRUE(t.breakdowns.empty());
    EXPECT_TRUE(t.rooflines.empty());
}

// A run whose rows ActivityReader cannot index (its rowids have a gap) is analysed from
// its stored rows first, then read whole: its ops, NVTX and kernel rows appear once, as
// they do when the streamed tables stand.
TEST_F(ReportExports, AFallbackToTheWholeReadAddsEachRowOnce) {
    const ReportTables streamed = tables();
    testing::leave_a_rowid_gap(dir_ / "results.db");
    const ReportTables whole = tables();
    for (const auto& [name, before, after] :
         std::vector<std::tuple<std::string, const CsvTable*, const CsvTable*>>{
             {"ops.csv", &streamed.ops, &whole.ops},
             {"nvtx.csv", &streamed.nvtx, &whole.nvtx},
             {"kernels.csv", &streamed.kernels, &whole.kernels}}) {
        write_csv_table(*before, dir_ / ("streamed-" + name));
        write_csv_table(*after, dir_ / ("whole-" + name));
        EXPECT_EQ(read_file(dir_ / ("whole-" + name)), read_file(dir_ / ("streamed-" + name)))
            << name;
    }
}

TEST_F(ReportExports, StepsAndNvtxCarryTheirUnits) {
    const ReportTables t = tables();
    write_csv_table(t.steps, dir_ / "steps.csv");
    write_csv_table(t.nvtx, dir_ / "nvtx.csv");
    const auto steps = testing::read_csv_with_python((dir_ / "steps.csv").string());
    ASSERT_EQ(steps.exit_code, 0) << steps.output;
    const std::int64_t ns = testing::report_run("fp32", 32, "device").steps[0].duration_ns;
    EXPECT_EQ(ns, 1'860'000);  // (0.4 + 0.03 x 32) ms + 0.5 ms of warm-up
    EXPECT_NE(steps.output.find("0|duration_ms|'1.86'"), std::string::npos) << steps.output;
    EXPECT_NE(steps.output.find("0|duration_ns|'1860000'"), std::string::npos) << steps.output;
    EXPECT_NE(steps.output.find("0|warmup|'true'"), std::string::npos) << steps.output;
    const auto nvtx = testing::read_csv_with_python((dir_ / "nvtx.csv").string());
    ASSERT_EQ(nvtx.exit_code, 0) << nvtx.output;
    // Run 1: "step" twice; each step launched all five kinds of work.
    EXPECT_NE(nvtx.output.find("0|range|'step'"), std::string::npos) << nvtx.output;
    EXPECT_NE(nvtx.output.find("0|count|'2'"), std::string::npos) << nvtx.output;
    EXPECT_NE(nvtx.output.find("0|kernel_count|'8'"), std::string::npos) << nvtx.output;
    EXPECT_NE(nvtx.output.find("0|copy_count|'2'"), std::string::npos) << nvtx.output;
    EXPECT_NE(nvtx.output.find("1|range|'forward'"), std::string::npos) << nvtx.output;
}

TEST(ReportMatrixPivot, AveragesCellsAndLeavesMissingOnesEmpty) {
    auto a = testing::report_run("fp32", 64, "device");
    auto b = testing::report_run("fp32", 64, "caching");
    b.metrics[0].value = a.metrics[0].value + 100.0;
    auto c = testing::report_run("fp16", 32, "device");
    auto failed = testing::report_run("fp16", 128, "device");
    failed.status = RunStatus::Failed;
    const auto table = matrix_pivot_table({a, b, c, failed}, {});
    ASSERT_EQ(table.size(), 4u);  // header + batch 32, 64, 128 (numeric order)
    ASSERT_EQ(table[0].size(), 3u);
    EXPECT_EQ(table[0][0].text(), "batch \\ precision: images_per_s");
    EXPECT_EQ(table[0][1].text(), "fp16");
    EXPECT_EQ(table[0][2].text(), "fp32");
    EXPECT_EQ(table[1][0].text(), "32");
    EXPECT_EQ(table[3][0].text(), "128");
    EXPECT_EQ(table[2][2].text(), CsvCell(a.metrics[0].value + 50.0).text());
    EXPECT_EQ(table[1][2].text(), "");  // fp32 / 32: no run
    EXPECT_EQ(table[3][1].text(), "");  // fp16 / 128: failed
    EXPECT_EQ(table[1][1].text(), CsvCell(c.metrics[0].value).text());
}

TEST(ReportMatrixPivot, BadMetricOrAxisNamesItAndListsTheChoices) {
    const std::vector<RunRecord> runs{testing::report_run("fp32", 64, "device")};
    try {
        (void)matrix_pivot_table(runs, {"images_per_sec", "batch", "precision"});
        FAIL() << "expected PivotError";
    } catch (const PivotError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("'images_per_sec'"), std::string::npos) << what;
        EXPECT_NE(what.find("--metric"), std::string::npos) << what;
        EXPECT_NE(what.find("images_per_s,"), std::string::npos) << what;
        EXPECT_NE(what.find("z_custom_metric"), std::string::npos) << what;
    }
    try {
        (void)matrix_pivot_table(runs, {"images_per_s", "batchsize", "precision"});
        FAIL() << "expected PivotError";
    } catch (const PivotError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("'batchsize'"), std::string::npos) << what;
        EXPECT_NE(what.find("--rows"), std::string::npos) << what;
        EXPECT_NE(what.find("precision"), std::string::npos) << what;
    }
    EXPECT_THROW((void)matrix_pivot_table(runs, {"images_per_s", "batch", "batch"}), PivotError);
}

TEST_F(ReportExports, FormatsRenderTheSameData) {
    const ReportTables t = tables();
    EXPECT_EQ(render_table(t.kernels, TableFormat::Csv), [&] {
        write_csv_table(t.kernels, dir_ / "k.csv");
        return read_file(dir_ / "k.csv");
    }());
    const std::string json = render_table(t.kernels, TableFormat::Json);
    std::ofstream(dir_ / "k.json", std::ios::binary) << json;
    const auto parsed = testing::run_command(
        "PYTHONIOENCODING=utf-8 python3 -c 'import json,sys\n"
        "rows=json.load(open(sys.argv[1], encoding=\"utf-8\"))\n"
        "names=[r[\"kernel\"] for r in rows]\n"
        "print(len(rows)); print(repr(rows[0][\"total_us\"]))\n"
        "print(repr(names))\n' " +
        testing::shell_quote((dir_ / "k.json").string()));
    ASSERT_EQ(parsed.exit_code, 0) << json;
    EXPECT_EQ(parsed.output.substr(0, parsed.output.find('\n')),
              std::to_string(t.kernels.size() - 1));
    EXPECT_NE(parsed.output.find("\n9\n"), std::string::npos) << parsed.output;
    EXPECT_NE(parsed.output.find("conv2d<float, 3>::\"fwd\"\\nüber→λ"), std::string::npos)
        << parsed.output;

    const std::string markdown = render_table(t.kernels, TableFormat::Markdown);
    EXPECT_NE(markdown.find("| matrix_id | run_id | kernel |"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("+cmd\\|' /C calc'!A0"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("conv2d&lt;float, 3>::\"fwd\"<br>über→λ"), std::string::npos)
        << markdown;
    std::istringstream lines(markdown);
    std::string line;
    std::size_t row_count = 0;
    while (std::getline(lines, line))
        ++row_count;
    EXPECT_EQ(row_count, t.kernels.size() + 1);  // header, separator, rows: one line each

    const std::string text = render_table(t.matrix, TableFormat::Text);
    EXPECT_NE(text.find("batch \\ precision: images_per_s"), std::string::npos) << text;
}

}  // namespace
}  // namespace trainscope::reports

namespace trainscope::reports {
namespace {

TEST(ReportTableRenderer, TextAlignsUtf8AndJsonHasNullsForMissingNumbers) {
    const CsvTable table{{"name", "value_ms"},
                         {"über", 1.5},
                         {"a\nb", CsvCell()},
                         {"nan", std::numeric_limits<double>::quiet_NaN()}};
    EXPECT_EQ(render_table(table, TableFormat::Text),
              "name  value_ms\n"
              "über       1.5\n"
              "a b\n"
              "nan        NaN\n");
    EXPECT_EQ(render_table(table, TableFormat::Json),
              "[\n"
              "  {\"name\": \"über\", \"value_ms\": 1.5},\n"
              "  {\"name\": \"a\\nb\", \"value_ms\": null},\n"
              "  {\"name\": \"nan\", \"value_ms\": null}\n"
              "]\n");
    EXPECT_EQ(render_table({{"only_header"}}, TableFormat::Json), "[]\n");
    EXPECT_FALSE(table_format_from_string("yaml").has_value());
    EXPECT_EQ(table_format_from_string("table"), TableFormat::Text);
}

}  // namespace
}  // namespace trainscope::reports
