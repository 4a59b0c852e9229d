#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "reports/metrics/MetricCatalog.hpp"
#include "reports/roofline/Roofline.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

// A CPU run traced at level full records every backend op and every training phase, and
// its Chrome export nests ops inside phases.
TEST(CpuTrace, FullLevelRecordsEveryOpAndPhaseAndExportsNested) {
    testing::TempDir dir;
    const auto db_path = dir / "r.db";
    constexpr int kSteps = 10;
    const auto r =
        run_trainscope("run --steps " + std::to_string(kSteps) +
                       " --warmup 2 --trace full --batch 64 -q --out " + db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;

    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    const auto trace = reports::load_trace(db, 1);
    ASSERT_TRUE(trace.has_value());
    std::map<std::string, int> ranges;
    std::map<std::string, int> ops;
    for (const auto& a : trace->activities) {
        if (a.kind == profiler::ActivityKind::NvtxRange)
            ++ranges[trace->strings.at(a.name)];
        if (a.kind == profiler::ActivityKind::HostOp)
            ++ops[trace->strings.at(a.name)];
    }
    for (const char* phase : {"step", "forward", "backward", "optimizer", "data load"}) {
        EXPECT_EQ(ranges[phase], kSteps) << phase;
    }
    EXPECT_GE(ranges["evaluation"], 1);
    // seed-cnn: one convolution whose filter gradient is computed once per step; its four
    // parameter tensors live in one flat buffer, which one Adam update per step covers.
    EXPECT_EQ(ops["conv_bwd_filter"], kSteps);
    EXPECT_EQ(ops["adam_update"], kSteps);
    EXPECT_GE(ops["conv_fwd"], kSteps) << "training plus evaluation forwards";
    const auto run = reports::load_run(db, 1, {});
    // The overhead always has its interval; a point value only when the interval
    // excludes zero (otherwise it is not measurable, and no number pretends it is).
    const auto* low = run.find_metric("tracing_overhead_pct_ci_low");
    const auto* high = run.find_metric("tracing_overhead_pct_ci_high");
    ASSERT_NE(low, nullptr);
    ASSERT_NE(high, nullptr);
    EXPECT_LE(low->value, high->value);
    if (const auto* overhead = run.find_metric("tracing_overhead_pct")) {
        EXPECT_TRUE(low->value > 0.0 || high->value < 0.0);
        EXPECT_LE(low->value, overhead->value);
        EXPECT_LE(overhead->value, high->value);
    } else {
        EXPECT_TRUE(low->value <= 0.0 && high->value >= 0.0);
    }
    EXPECT_NE(run.environment.at("tracing_overhead_probe").find("ABBA"), std::string::npos);
    ASSERT_NE(run.find_metric("cpu_op_busy_pct"), nullptr);
    EXPECT_GT(run.find_metric("cpu_op_busy_pct")->value, 10.0);
    // Every metric the runner stored has a catalog entry: its words, unit and direction
    // in the GUI, the HTML report and compare.
    for (const reports::Metric& m : run.metrics)
        EXPECT_NE(reports::find_metric_info(m.name), nullptr) << m.name;

    const auto report =
        run_trainscope("report " + db_path.string() + " --csv " + (dir / "csv").string());
    ASSERT_EQ(report.exit_code, 0) << report.output;
    std::ifstream kernels_csv(dir / "csv" / "kernels.csv");
    bool found = false;
    for (std::string line; std::getline(kernels_csv, line);) {
        found = found || line.rfind("1,1,conv_bwd_filter,conv_bwd_filter,convolution,false," +
                                        std::to_string(kSteps) + ",",
                                    0) == 0;
    }
    EXPECT_TRUE(found) << "kernels.csv lists the CPU run's ops with their counts";

    const auto json_path = dir / "trace.json";
    const auto exported =
        run_trainscope("export " + db_path.string() + " --run 1 -o " + json_path.string());
    ASSERT_EQ(exported.exit_code, 0) << exported.output;
    std::ifstream in(json_path);
    const auto json = nlohmann::json::parse(in);
    struct Interval {
        double begin, end;
    };
    std::map<std::int64_t, std::vector<Interval>> steps_by_thread;
    std::vector<std::pair<std::int64_t, Interval>> op_events;
    for (const auto& e : json.at("traceEvents")) {
        if (e.value("ph", "") != "X")
            continue;
        const Interval iv{e.at("ts").get<double>(),
                          e.at("ts").get<double>() + e.at("dur").get<double>()};
        if (e.value("name", "") == "step")
            steps_by_thread[e.at("tid").get<std::int64_t>()].push_back(iv);
        if (e.value("name", "") == "conv_bwd_filter")
            op_events.push_back({e.at("tid").get<std::int64_t>(), iv});
    }
    ASSERT_EQ(op_events.size(), static_cast<std::size_t>(kSteps));
    // Host ops and NVTX ranges are on the thread's two lanes; a gradient op must lie inside
    // some step range (in time) of the same process.
    std::vector<Interval> all_steps;
    for (const auto& [tid, list] : steps_by_thread)
        all_steps.insert(all_steps.end(), list.begin(), list.end());
    ASSERT_EQ(all_steps.size(), static_cast<std::size_t>(kSteps));
    for (const auto& [tid, op] : op_events) {
        bool nested = false;
        for (const auto& s : all_steps)
            nested = nested || (s.begin <= op.begin && op.end <= s.end);
        EXPECT_TRUE(nested) << "conv_bwd_filter at " << op.begin << " is outside every step";
    }
}

// A CPU run traced at level kernels, the demo's level: the ops are the device's work and
// the phase ranges stay, so `analyze` attributes to each range the ops run inside it on
// its thread, to the nanosecond the trace's own op durations give.
TEST(CpuTrace, KernelsLevelKeepsPhasesAndAnalyzeAttributesOpsToThem) {
    testing::TempDir dir;
    const auto db_path = dir / "k.db";
    constexpr int kSteps = 6;
    const auto r =
        run_trainscope("run --steps " + std::to_string(kSteps) +
                       " --warmup 1 --trace kernels --batch 32 -q --out " + db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;

    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    const auto trace = reports::load_trace(db, 1);
    ASSERT_TRUE(trace.has_value());
    std::vector<const profiler::Activity*> steps;
    std::vector<const profiler::Activity*> ops;
    for (const auto& a : trace->activities) {
        if (a.kind == profiler::ActivityKind::NvtxRange && trace->strings.at(a.name) == "step")
            steps.push_back(&a);
        if (a.kind == profiler::ActivityKind::HostOp) {
            ops.push_back(&a);
            EXPECT_EQ(trace->lanes.at(a.lane).name, "CPU · main thread");
        }
    }
    ASSERT_EQ(steps.size(), static_cast<std::size_t>(kSteps));
    // The ops that start inside a step (one thread runs them all).
    std::int64_t expected_ns = 0;
    for (const auto* op : ops) {
        for (const auto* step : steps) {
            if (step->start_ns <= op->start_ns && op->start_ns < step->end_ns)
                expected_ns += op->duration_ns();
        }
    }
    ASSERT_GT(expected_ns, 0);

    const auto analyzed = run_trainscope("analyze " + db_path.string() + " --run 1");
    ASSERT_EQ(analyzed.exit_code, 0) << analyzed.output;
    ASSERT_NE(analyzed.output.find("NVTX ranges -> CPU time of the ops"), std::string::npos)
        << analyzed.output;
    // "  step   <count>   <host time> ms   <op time> ms   <CPU busy> ms"
    const auto line_at = analyzed.output.find("\n  step ");
    ASSERT_NE(line_at, std::string::npos) << analyzed.output;
    std::istringstream line(analyzed.output.substr(line_at + 1));
    std::string name, unit;
    long long count = 0;
    double host_ms = 0, op_ms = 0, busy_ms = 0;
    line >> name >> count >> host_ms >> unit >> op_ms >> unit >> busy_ms;
    EXPECT_EQ(count, kSteps);
    EXPECT_NEAR(op_ms, static_cast<double>(expected_ns) / 1e6, 0.0006);
    EXPECT_GT(op_ms, 0.5 * host_ms) << "the ops fill most of a CPU step";
    EXPECT_LE(op_ms, host_ms);
}

// Every recorded run carries its roofline: model FLOPs, both roofs with their sources,
// achieved TFLOP/s and an MFU that never reads above 100 %; its traced ops carry their
// FLOPs and bytes, none faster than the compute roof.
TEST(CpuTrace, RunsRecordTheirRooflineAndStayUnderTheRoof) {
    testing::TempDir dir;
    const auto db_path = dir / "r.db";
    const auto r = run_trainscope(
        "run --steps 8 --warmup 2 --trace kernels --batch 32 --precision fp32,fp64 -q --out " +
        db_path.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    reports::ResultsDatabase db(db_path, reports::OpenMode::ReadOnly);
    const auto runs = reports::load_runs(db, {}, {});
    ASSERT_EQ(runs.size(), 2u);  // fp32 and fp64: each precision's own peak
    for (const auto& run : runs) {
        SCOPED_TRACE(run.cell_key);
        const auto* mfu = run.find_metric("mfu_pct");
        const auto* achieved = run.find_metric("achieved_tflops");
        const auto* forward = run.find_metric("model_flops_fwd_per_image");
        ASSERT_NE(mfu, nullptr);
        ASSERT_NE(achieved, nullptr);
        ASSERT_NE(forward, nullptr);
        EXPECT_GT(mfu->value, 0.0);
        EXPECT_LE(mfu->value, 100.0);
        EXPECT_GT(achieved->value, 0.0);
        EXPECT_GT(forward->value, 497536.0) << "seed-cnn's conv+GEMM FLOPs and more";
        EXPECT_FALSE(run.environment.at("peak_flops_source").empty());
        EXPECT_NE(run.environment.at("peak_bandwidth_source").find("triad"), std::string::npos);
        const auto trace = reports::load_trace(db, run.id);
        ASSERT_TRUE(trace.has_value());
        const auto roofs = reports::roofs_of(run.metrics);
        ASSERT_TRUE(roofs.known());
        const auto ops = reports::op_roofline(*trace, roofs);
        ASSERT_FALSE(ops.empty());
        bool conv = false;
        for (const auto& op : ops) {
            EXPECT_LE(op.achieved_flops_per_s, roofs.peak_flops_per_s) << op.name;
            if (op.name == "conv_fwd") {
                conv = true;
                EXPECT_GT(op.flops, 0.0);
                EXPECT_EQ(op.category, "convolution");
                EXPECT_NE(op.bound, reports::Bound::unknown);
            }
        }
        EXPECT_TRUE(conv);
    }
}

}  // namespace
}  // namespace trainscope
