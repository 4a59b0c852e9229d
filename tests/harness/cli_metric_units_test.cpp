// Every metric a real run stores is in the catalog and carries the catalog's unit: the
// writers (harness, reports/trace, workloads' extra metrics) give no units of their own.
#include <gtest/gtest.h>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "reports/metrics/MetricCatalog.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope {
namespace {

TEST(CliMetricUnits, EveryMetricOfARealRunHasTheCatalogsUnit) {
    testing::TempDir dir;
    const auto db_path = dir / "results.db";
    // Traced (trace metrics, the tracing-overhead probe) and stopped by the noise rule.
    const auto r = testing::run_trainscope(
        "run --backend cpu --model seed-cnn --batch 32 --steps 12 --warmup 2 --threads 2 "
        "--trace kernels --rse 0.5 --out " +
        db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    auto rows = db.prepare("SELECT name, unit FROM metrics");
    int metrics = 0;
    while (rows.step()) {
        ++metrics;
        const std::string name = rows.column_text(0);
        const reports::MetricInfo* info = reports::find_metric_info(name);
        ASSERT_NE(info, nullptr) << name << " is not in reports/metrics/MetricCatalog.cpp";
        EXPECT_EQ(rows.column_text(1), info->unit) << name;
    }
    EXPECT_GT(metrics, 20) << r.output;
}

}  // namespace
}  // namespace trainscope
