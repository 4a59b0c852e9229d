#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

// A traced matrix ends with the command that opens its slowest cell's timeline.
TEST(CliEndToEnd, TracedMatrixEndsWithTheCommandThatOpensItsSlowestCellsTimeline) {
    testing::TempDir dir;
    const auto db_path = dir / "results.db";
    const auto r = run_trainscope(
        "run --backend cpu --model seed-cnn --precision fp32,fp64 --batch 32 --steps 12 "
        "--warmup 2 --threads 2 --trace kernels --out " +
        db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    reports::RunParts parts;
    parts.metrics = true;
    const auto runs = reports::load_runs(db, {}, parts);
    ASSERT_EQ(runs.size(), 2u);
    const auto& slowest =
        runs[0].find_metric("images_per_s")->value < runs[1].find_metric("images_per_s")->value
            ? runs[0]
            : runs[1];
    const std::string expected =
        "trainscope-gui " + db_path.string() + " --run " + std::to_string(slowest.id) + "\n";
    const auto line = r.output.rfind("Timeline of run ");
    ASSERT_NE(line, std::string::npos) << r.output;
    EXPECT_NE(r.output.find(expected, line), std::string::npos) << r.output;

    const auto untraced = run_trainscope("run --backend cpu --steps 6 --warmup 1 --out " +
                                         (dir / "untraced.db").string());
    ASSERT_EQ(untraced.exit_code, 0) << untraced.output;
    EXPECT_EQ(untraced.output.find("Timeline of run"), std::string::npos) << untraced.output;
}

TEST(CliEndToEnd, RunStoresAMatrixAndReportWritesRunsCsv) {
    testing::TempDir dir;
    const auto db_path = dir / "results.db";
    const auto r = run_trainscope(
        "run --backend cpu --model seed-cnn --batch 32,64 --steps 20 "
        "--warmup 2 --threads 2 --seed 3 --out " +
        db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("images/s"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("test accuracy"), std::string::npos) << r.output;

    {
        reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
        reports::RunParts parts;
        parts.steps = true;
        parts.evaluations = true;
        const auto runs = reports::load_runs(db, {}, parts);
        ASSERT_EQ(runs.size(), 2u);
        for (const auto& run : runs) {
            EXPECT_EQ(run.status, reports::RunStatus::Ok) << run.error;
            EXPECT_EQ(run.steps.size(), 20u);
            EXPECT_EQ(run.axes.backend, "cpu");
            EXPECT_EQ(run.axes.host_memory, "n/a");
            EXPECT_FALSE(run.evaluations.empty());
            ASSERT_NE(run.find_metric("images_per_s"), nullptr);
            EXPECT_GT(run.find_metric("images_per_s")->value, 0.0);
            for (const char* key : {"host", "cpu_model", "git_revision", "hardware_threads"}) {
                EXPECT_EQ(run.environment.count(key), 1u) << key;
            }
        }
        EXPECT_EQ(runs[0].axes.batch, 32);
        EXPECT_EQ(runs[1].axes.batch, 64);
        EXPECT_EQ(db.integrity_check(), "ok");
    }

    const auto report =
        run_trainscope("report " + db_path.string() + " --csv " + (dir / "csv").string());
    ASSERT_EQ(report.exit_code, 0) << report.output;
    std::ifstream csv(dir / "csv" / "runs.csv");
    std::string header;
    std::getline(csv, header);
    EXPECT_EQ(header.rfind("matrix_id,run_id,status,error,source,model,", 0), 0u) << header;
    int rows = 0;
    for (std::string line; std::getline(csv, line);)
        ++rows;
    EXPECT_EQ(rows, 2);
}

TEST(CliEndToEnd, CpuRunSkipsCudaOnlyCellsAndGoesOn) {
    testing::TempDir dir;
    const auto db_path = dir / "results.db";
    const auto r = run_trainscope(
        "run --backend cpu --allocator device,async --steps 5 --warmup 1 "
        "--out " +
        db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    const auto runs = reports::load_runs(db, {}, {});
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].status, reports::RunStatus::Ok);
    EXPECT_EQ(runs[1].status, reports::RunStatus::Skipped);
    EXPECT_NE(runs[1].error.find("allocator=async"), std::string::npos) << runs[1].error;
}

TEST(CliEndToEnd, ARunOnABusyMachineIsFlagged) {
    // This test process keeps one core busy while the cell trains: to the cell, another
    // process using half of a 2-core machine (a quarter of 4 cores, ...), far over the
    // 10 % threshold on any machine of up to 8 cores.
    if (std::thread::hardware_concurrency() > 8) {
        GTEST_SKIP() << "one busy thread is under the threshold on more than 8 cores";
    }
    testing::TempDir dir;
    const auto db_path = dir / "results.db";
    std::atomic<bool> stop{false};
    std::thread busy([&stop] {
        volatile std::uint64_t spins = 0;
        while (!stop.load(std::memory_order_relaxed)) {
            spins = spins + 1;
        }
    });
    const auto r = run_trainscope(
        "run --backend cpu --model seed-cnn --batch 64 --steps 150 --warmup 2 --threads 1 "
        "--out " +
        db_path.string());
    stop = true;
    busy.join();
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("WARNING: the machine was busy"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("ok (busy host)"), std::string::npos) << r.output;
    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    const auto runs = reports::load_runs(db, {}, {});
    ASSERT_EQ(runs.size(), 1u);
    const reports::Metric* other = runs[0].find_metric("host_other_cpu_pct");
    ASSERT_NE(other, nullptr);
    EXPECT_GT(other->value, 10.0);
    ASSERT_NE(runs[0].find_metric("host_steal_pct"), nullptr);
    EXPECT_EQ(runs[0].environment.count("capture_warning_1"), 1u);
}

}  // namespace
}  // namespace trainscope
