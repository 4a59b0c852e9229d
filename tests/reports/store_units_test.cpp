// Each stored metric carries the catalog's unit (reports/metrics/MetricCatalog), whatever
// the writer gave, and a file written before the catalog settled a unit reads with the
// catalog's: one unit per tag in every file, table and chart.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "reports/metrics/MetricCatalog.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"

namespace trainscope::reports {
namespace {

std::map<std::string, std::string> stored_units(const ResultsDatabase& db) {
    std::map<std::string, std::string> units;
    auto rows = db.prepare("SELECT name, unit FROM metrics");
    while (rows.step())
        units[rows.column_text(0)] = rows.column_text(1);
    return units;
}

std::int64_t write_run(const std::filesystem::path& path, std::vector<Metric> metrics) {
    ResultsDatabase db(path, OpenMode::CreateOrOpen);
    RunRecord run = testing::sample_run();
    run.metrics = std::move(metrics);
    return RunWriter(db).write(run);
}

TEST(StoredMetricUnits, AreTheCatalogsWhateverTheWriterGave) {
    testing::TempDir dir;
    const auto path = dir / "results.db";
    const std::int64_t id = write_run(path, {{"test_accuracy", 0.9, ""},
                                             {"step_ms_median", 5.0, "s"},
                                             {"time_us", 2.0, "us"},
                                             {"op_gemm_per_step", 3.0, ""},
                                             {"imported_metric", 1.0, "widgets"}});
    ResultsDatabase db(path, OpenMode::ReadOnly);
    const std::map<std::string, std::string> expected{{"test_accuracy", "fraction"},
                                                      {"step_ms_median", "ms"},
                                                      {"time_us", "µs"},
                                                      {"op_gemm_per_step", ""},
                                                      {"imported_metric", "widgets"}};
    EXPECT_EQ(stored_units(db), expected);
    for (const Metric& m : load_run(db, id, RunParts{true, false, false, false, false}).metrics)
        EXPECT_EQ(m.unit, expected.at(m.name)) << m.name;
}

TEST(StoredMetricUnits, AnOlderFilesUnitReadsAsTheCatalogs) {
    testing::TempDir dir;
    const auto path = dir / "results.db";
    const std::int64_t id =
        write_run(path, {{"test_accuracy", 0.9, ""}, {"imported_metric", 1.0, "widgets"}});
    {
        // As files written before the catalog said "fraction" hold it.
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        db.exec("UPDATE metrics SET unit = '' WHERE name = 'test_accuracy'");
        db.exec("UPDATE metrics SET unit = 'gadgets' WHERE name = 'imported_metric'");
    }
    ResultsDatabase db(path, OpenMode::ReadOnly);
    const RunRecord run = load_run(db, id, RunParts{true, false, false, false, false});
    ASSERT_NE(run.find_metric("test_accuracy"), nullptr);
    EXPECT_EQ(run.find_metric("test_accuracy")->unit, metric_unit("test_accuracy"));
    EXPECT_EQ(run.find_metric("test_accuracy")->unit, "fraction");
    ASSERT_NE(run.find_metric("imported_metric"), nullptr);
    EXPECT_EQ(run.find_metric("imported_metric")->unit, "gadgets");  // outside the catalog
}

}  // namespace
}  // namespace trainscope::reports
