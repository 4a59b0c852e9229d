#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "harness/pytorch/PyTorchProbe.hpp"
#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/analysis/TraceDiff.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

// Small and quick: synthetic 1x12x12 images, a few steps on one thread.
const std::string kQuick =
    " --model seed-cnn --backend cpu --dataset synthetic --input 1x12x12 --steps 6 --warmup 2 "
    "--threads 1 -q";

std::string python_with_torch() {
    return TRAINSCOPE_TEST_PYTHON;
}

bool have_torch() {
    return harness::probe_pytorch(python_with_torch()).found;
}

std::vector<reports::RunRecord> runs_of(const std::filesystem::path& db_path) {
    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    return reports::load_runs(db, {}, reports::RunParts{true, true, true, true, false});
}

// torch.profiler nests ops (aten::conv2d > aten::convolution > aten::_convolution >
// aten::mkldnn_convolution, aten::linear > aten::addmm): trainscope diff's rows add up,
// in self time, to the time the outermost ops cover on each thread, counted once, while
// their totals count nested time again.
void expect_self_times_add_up_to_the_outermost_ops(const profiler::Trace& trace) {
    std::map<profiler::LaneId, std::vector<profiler::Interval>> by_lane;
    for (const auto& a : trace.activities) {
        if (a.kind == profiler::ActivityKind::HostOp)
            by_lane[a.lane].push_back({a.start_ns, a.end_ns});
    }
    std::int64_t covered = 0;
    for (auto& [lane, intervals] : by_lane)
        covered += profiler::total_length_ns(profiler::merge_intervals(std::move(intervals)));
    const profiler::TraceDiff diff = profiler::diff_traces(trace, trace);
    std::int64_t self = 0;
    std::int64_t total = 0;
    for (const auto& row : diff.rows) {
        self += row.a.self_ns;
        total += row.a.total_ns;
    }
    EXPECT_GT(covered, 0);
    EXPECT_EQ(self, covered);
    EXPECT_GT(total, covered) << "the trace nests ops: totals count their time twice";
    for (const auto& row : diff.rows) {
        if (row.name == "aten::conv2d") {
            EXPECT_LT(row.a.self_ns, row.a.total_ns) << "aten::convolution runs inside";
        }
    }
}

TEST(PyTorchCells, BothFrameworksOnTheCpuAreRecordedAndThePyTorchTraceHoldsItsOps) {
    if (!have_torch())
        GTEST_SKIP() << "PyTorch not found by " << python_with_torch()
                     << " (apt-get install python3-torch)";
    testing::TempDir dir;
    const auto db_path = dir / "r.db";
    const auto r = run_trainscope("run --framework trainscope,pytorch --trace kernels --python " +
                                  python_with_torch() + kQuick + " --out " + db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto runs = runs_of(db_path);
    ASSERT_EQ(runs.size(), 2u);
    std::map<std::string, const reports::RunRecord*> by_framework;
    for (const auto& run : runs)
        by_framework[run.axes.framework] = &run;
    ASSERT_EQ(by_framework.count("trainscope"), 1u);
    ASSERT_EQ(by_framework.count("pytorch"), 1u);
    const reports::RunRecord& torch = *by_framework["pytorch"];
    EXPECT_EQ(torch.status, reports::RunStatus::Ok) << torch.error;
    EXPECT_EQ(torch.steps.size(), 6u);
    ASSERT_NE(torch.find_metric("images_per_s"), nullptr);
    ASSERT_NE(torch.find_metric("step_ms_median"), nullptr);
    EXPECT_EQ(torch.find_metric("step_count")->value, 4.0) << "6 steps less 2 of warm-up";
    EXPECT_EQ(torch.find_metric("parameter_count")->value,
              by_framework["trainscope"]->find_metric("parameter_count")->value);
    EXPECT_EQ(torch.environment.at("trainscope_parameter_count"),
              std::to_string(static_cast<long long>(torch.find_metric("parameter_count")->value)));
    EXPECT_FALSE(torch.environment.at("pytorch_torch_version").empty());
    ASSERT_FALSE(torch.evaluations.empty());

    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    const auto trace = reports::load_trace(db, torch.id);
    ASSERT_TRUE(trace.has_value()) << "the torch.profiler trace is imported into the run";
    std::map<std::string, int> ranges;
    std::map<std::string, int> ops;
    for (const auto& a : trace->activities) {
        if (a.kind == profiler::ActivityKind::NvtxRange)
            ++ranges[trace->strings.at(a.name)];
        if (a.kind == profiler::ActivityKind::HostOp)
            ++ops[trace->strings.at(a.name)];
    }
    for (const char* phase : {"step", "forward", "backward", "optimizer"})
        EXPECT_EQ(ranges[phase], 6) << phase;
    EXPECT_GE(ops["aten::conv2d"], 6) << "one convolution per training forward at least";
    EXPECT_GE(ops["aten::max_pool2d"], 6);
    expect_self_times_add_up_to_the_outermost_ops(*trace);

    // A traced PyTorch cell measures what torch.profiler costs it, as the engine's cells
    // measure their tracers: the interval always, by the same probe.
    ASSERT_NE(torch.find_metric("tracing_overhead_pct_ci_low"), nullptr);
    ASSERT_NE(torch.find_metric("tracing_overhead_pct_ci_high"), nullptr);
    EXPECT_LE(torch.find_metric("tracing_overhead_pct_ci_low")->value,
              torch.find_metric("tracing_overhead_pct_ci_high")->value);
    EXPECT_NE(torch.environment.at("tracing_overhead_probe").find("6 rounds"), std::string::npos)
        << torch.environment.at("tracing_overhead_probe");

    // compare treats framework as an axis: the PyTorch run against the trainscope one.
    const auto compared = run_trainscope("compare " + db_path.string());
    ASSERT_EQ(compared.exit_code, 0) << compared.output;
    EXPECT_NE(compared.output.find("framework=trainscope"), std::string::npos) << compared.output;
    EXPECT_NE(compared.output.find("framework=pytorch"), std::string::npos) << compared.output;
    EXPECT_NE(compared.output.find("baseline"), std::string::npos) << compared.output;
}

// Without --steps/--epochs the harness's stopping rule ends a PyTorch cell as it ends an
// engine's cell: a loose noise target is met after --min-steps measured steps; a target
// that cannot be met gives up at --max-time.
TEST(PyTorchCells, TheRseRuleStopsAPyTorchCellAsItStopsTheEngines) {
    if (!have_torch())
        GTEST_SKIP() << "PyTorch not found by " << python_with_torch();
    testing::TempDir dir;
    const std::string common =
        " --model seed-cnn --backend cpu --dataset synthetic --input 1x12x12 --warmup 2 "
        "--threads 1 -q --framework trainscope,pytorch --python " +
        python_with_torch();
    const auto met_db = dir / "met.db";
    auto r = run_trainscope("run --rse 0.9 --min-steps 20" + common + " --out " + met_db.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    for (const auto& run : runs_of(met_db)) {
        SCOPED_TRACE(run.axes.framework);
        EXPECT_EQ(run.status, reports::RunStatus::Ok) << run.error;
        ASSERT_NE(run.find_metric("noise_target_met"), nullptr);
        EXPECT_EQ(run.find_metric("noise_target_met")->value, 1.0);
        EXPECT_EQ(run.steps.size(), 22u) << "20 measured steps and 2 of warm-up, then stopped";
    }
    const auto capped_db = dir / "capped.db";
    r = run_trainscope("run --rse 1e-9 --max-time 0.3" + common + " --out " + capped_db.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    for (const auto& run : runs_of(capped_db)) {
        SCOPED_TRACE(run.axes.framework);
        EXPECT_EQ(run.status, reports::RunStatus::Ok) << run.error;
        ASSERT_NE(run.find_metric("noise_target_met"), nullptr);
        EXPECT_EQ(run.find_metric("noise_target_met")->value, 0.0);
        double trained_s = 0.0;
        for (const auto& step : run.steps)
            trained_s += static_cast<double>(step.duration_ns) * 1e-9;
        EXPECT_GE(trained_s, 0.3);
        EXPECT_LT(trained_s, 5.0) << "the time cap stopped it";
    }
}

TEST(PyTorchCells, ASettingPyTorchLacksIsSkippedWithItsReasonAndTheRestRuns) {
    if (!have_torch())
        GTEST_SKIP() << "PyTorch not found by " << python_with_torch();
    testing::TempDir dir;
    const auto db_path = dir / "r.db";
    const auto r = run_trainscope("run --framework pytorch --precision tf32,fp32 --python " +
                                  python_with_torch() + kQuick + " --out " + db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto runs = runs_of(db_path);
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& run : runs) {
        if (run.axes.precision == "tf32") {
            EXPECT_EQ(run.status, reports::RunStatus::Skipped);
            EXPECT_NE(run.error.find("precision=tf32: PyTorch has no TF32 on the CPU"),
                      std::string::npos)
                << run.error;
        } else {
            EXPECT_EQ(run.status, reports::RunStatus::Ok) << run.error;
        }
    }
}

// A real interpreter that cannot import torch: Debian's python without its site
// packages (python -S), as a python of a venv without torch would be.
TEST(PyTorchCells, WithoutTorchThePyTorchCellsAreSkippedWithTheAdviceAndTheRestRuns) {
    testing::TempDir dir;
    const auto stub = dir / "python-without-torch";
    std::ofstream(stub) << "#!/bin/sh\nexec " << python_with_torch() << " -S \"$@\"\n";
    std::filesystem::permissions(stub, std::filesystem::perms::owner_all);
    const auto db_path = dir / "r.db";
    const auto r = run_trainscope("run --framework trainscope,pytorch --python " + stub.string() +
                                  kQuick + " --out " + db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto runs = runs_of(db_path);
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& run : runs) {
        if (run.axes.framework == "pytorch") {
            EXPECT_EQ(run.status, reports::RunStatus::Skipped);
            EXPECT_EQ(run.error, "PyTorch not found by " + stub.string() + ": pip install torch");
        } else {
            EXPECT_EQ(run.status, reports::RunStatus::Ok) << run.error;
        }
    }
}

// "The same data" on synthetic data: the worker trains on trainscope's learnable images
// (labels a function of the image), not on random labels, so a few hundred steps of
// either framework reach well above chance (1 in 4).
TEST(PyTorchCells, BothFrameworksLearnTheSyntheticDataWellAboveChance) {
    if (!have_torch())
        GTEST_SKIP() << "PyTorch not found by " << python_with_torch();
    testing::TempDir dir;
    const auto db_path = dir / "r.db";
    const auto r = run_trainscope(
        "run --framework trainscope,pytorch --model seed-cnn --backend cpu --dataset synthetic "
        "--input 1x12x12 --classes 4 --batch 32 --steps 300 --warmup 2 --threads 1 -q --python " +
        python_with_torch() + " --out " + db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto runs = runs_of(db_path);
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& run : runs) {
        SCOPED_TRACE(run.axes.framework);
        ASSERT_EQ(run.status, reports::RunStatus::Ok) << run.error;
        const auto* accuracy = run.find_metric("test_accuracy");
        ASSERT_NE(accuracy, nullptr);
        EXPECT_GE(accuracy->value, 0.9) << "chance is 0.25";
    }
}

// What --dry-run lists is the order cells run in: each case's two frameworks side by
// side, the one going first alternating from case to case.
TEST(PyTorchCells, ADryRunListsEachCasesFrameworksSideBySideInAlternatingOrder) {
    testing::TempDir dir;
    const auto r = run_trainscope("run --framework trainscope,pytorch --batch 16,32,64 --python " +
                                  (dir / "no-python").string() + kQuick + " --dry-run");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::vector<std::string> expected{
        "   1  framework=trainscope batch=16\n",      "   2  framework=pytorch batch=16  [skipped",
        "   3  framework=pytorch batch=32  [skipped", "   4  framework=trainscope batch=32\n",
        "   5  framework=trainscope batch=64\n",      "   6  framework=pytorch batch=64  [skipped"};
    std::size_t at = 0;
    for (const std::string& line : expected) {
        const std::size_t found = r.output.find(line, at);
        ASSERT_NE(found, std::string::npos) << "no '" << line << "' after offset " << at << " in:\n"
                                            << r.output;
        at = found + line.size();
    }
}

}  // namespace
}  // namespace trainscope
