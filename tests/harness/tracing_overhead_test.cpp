#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "harness/runner/TracingOverhead.hpp"
#include "reports/metrics/MetricCatalog.hpp"

namespace trainscope::harness {
namespace {

workloads::StepRecord step(double ns, bool warmup = false) {
    workloads::StepRecord s;
    s.duration_ns = static_cast<std::int64_t>(ns);
    s.warmup = warmup;
    return s;
}

// Drives the probe as the engine does: one step at a time, its time chosen by `time_of`
// from the step's position and whether tracing is on, until the probe says stop.
struct ProbeRun {
    int switches = 0;
    std::int64_t steps_run = 0;
    std::vector<OverheadRound> rounds;
    bool complete = false;
};
template <class TimeOf>
ProbeRun drive(std::size_t rounds, std::int64_t per_block, TimeOf time_of) {
    ProbeRun run;
    bool tracing = false;
    InterleavedTracingProbe probe(rounds, per_block, [&](bool on) {
        EXPECT_NE(on, tracing) << "a switch always changes the side";
        tracing = on;
        ++run.switches;
    });
    EXPECT_TRUE(probe.on_step(step(1e9, true))) << "warm-up steps are not measured";
    for (std::int64_t i = 0; i < 10'000; ++i) {
        ++run.steps_run;
        if (!probe.on_step(step(time_of(i, tracing))))
            break;
    }
    EXPECT_FALSE(tracing) << "the probe ends untraced";
    run.rounds = probe.rounds();
    run.complete = probe.complete();
    EXPECT_EQ(run.steps_run, probe.steps_needed());
    return run;
}

TEST(TracingOverhead, BlocksAlternateInAbbaOrder) {
    const std::vector<bool> expected{false, true, true, false, false, true, true, false};
    for (std::size_t b = 0; b < expected.size(); ++b)
        EXPECT_EQ(probe_block_is_traced(b), expected[b]) << "block " << b;
}

TEST(TracingOverhead, ProbeMeasuresTracedAgainstUntracedBlocksAndDropsEachBlocksFirstStep) {
    const std::int64_t per_block = 8;
    const ProbeRun run = drive(6, per_block, [&](std::int64_t i, bool tracing) {
        // The first step after every block boundary is a wild outlier: it must not count.
        if (i % per_block == 0)
            return 50e6;
        return tracing ? 1.2e6 : 1.0e6;
    });
    ASSERT_TRUE(run.complete);
    EXPECT_EQ(run.switches, 6) << "U T|T U|U T|T U|U T|T U: six changes of side";
    ASSERT_EQ(run.rounds.size(), 6u);
    for (const OverheadRound& r : run.rounds) {
        EXPECT_DOUBLE_EQ(r.untraced_median, 1.0e6);
        EXPECT_DOUBLE_EQ(r.traced_median, 1.2e6);
    }
    const auto overhead = estimate_tracing_overhead(run.rounds);
    ASSERT_TRUE(overhead.has_value());
    EXPECT_NEAR(overhead->estimate_pct, 20.0, 1e-9);
    EXPECT_TRUE(overhead->measurable());
}

// The bug this replaces: a traced run's early steps against a fresh untraced run put any
// change of speed over time into the figure. Interleaved ABBA blocks cancel a drift.
TEST(TracingOverhead, ASteadyDriftWithoutTracingCostIsNotReportedAsOverhead) {
    const ProbeRun run = drive(6, 10, [](std::int64_t i, bool) {
        return 1.0e6 * (1.0 + 0.01 * static_cast<double>(i));  // 1 % slower every step
    });
    ASSERT_TRUE(run.complete);
    const auto overhead = estimate_tracing_overhead(run.rounds);
    ASSERT_TRUE(overhead.has_value());
    EXPECT_LT(std::abs(overhead->estimate_pct), 1.0) << overhead->estimate_pct;
    EXPECT_FALSE(overhead->measurable())
        << "interval " << overhead->ci_low_pct << " .. " << overhead->ci_high_pct;
}

TEST(TracingOverhead, EffectInsideTheNoiseIsNotMeasurableAndHasNoPointValue) {
    const std::vector<OverheadRound> rounds{{1.0, 1.05}, {1.0, 0.95}, {1.0, 1.10},
                                            {1.0, 0.92}, {1.0, 1.01}, {1.0, 0.99}};
    const auto overhead = estimate_tracing_overhead(rounds);
    ASSERT_TRUE(overhead.has_value());
    EXPECT_LT(overhead->ci_low_pct, 0.0);
    EXPECT_GT(overhead->ci_high_pct, 0.0);
    EXPECT_FALSE(overhead->measurable());
    const auto metrics = tracing_overhead_metrics(*overhead);
    std::vector<std::string> names;
    for (const auto& m : metrics)
        names.push_back(m.name);
    EXPECT_EQ(names, (std::vector<std::string>{"tracing_overhead_pct_ci_low",
                                               "tracing_overhead_pct_ci_high"}));
}

TEST(TracingOverhead, MeasurableEffectCarriesItsInterval) {
    const std::vector<OverheadRound> rounds{{1.0, 1.10}, {1.0, 1.12}, {1.0, 1.08},
                                            {1.0, 1.11}, {1.0, 1.09}, {1.0, 1.10}};
    const auto overhead = estimate_tracing_overhead(rounds);
    ASSERT_TRUE(overhead.has_value());
    EXPECT_TRUE(overhead->measurable());
    EXPECT_LT(overhead->ci_low_pct, overhead->estimate_pct);
    EXPECT_GT(overhead->ci_high_pct, overhead->estimate_pct);
    EXPECT_NEAR(overhead->estimate_pct, 10.0, 0.2);
    const auto metrics = tracing_overhead_metrics(*overhead);
    ASSERT_EQ(metrics.size(), 3u);
    EXPECT_EQ(metrics[0].name, "tracing_overhead_pct");
    // The unit is the catalog's, which the store writes; the writer gives none.
    EXPECT_EQ(reports::metric_unit(metrics[0].name), "%");
    EXPECT_EQ(metrics[0].unit, "");
}

TEST(TracingOverhead, TooFewOrInvalidRoundsGiveNoFigure) {
    EXPECT_FALSE(estimate_tracing_overhead(std::vector<OverheadRound>{{1.0, 1.1}}).has_value());
    EXPECT_FALSE(
        estimate_tracing_overhead(std::vector<OverheadRound>{{1.0, 1.1}, {0.0, 1.0}}).has_value());
    EXPECT_FALSE(
        estimate_tracing_overhead(std::vector<OverheadRound>{{1.0, 1.1}, {1.0, std::nan("")}})
            .has_value());
}

TEST(TracingOverhead, BlockLengthFollowsTheStepTime) {
    EXPECT_EQ(probe_steps_per_block(1e6), 40) << "fast steps: capped";
    EXPECT_EQ(probe_steps_per_block(25e6), 10) << "a quarter of a second per block";
    EXPECT_EQ(probe_steps_per_block(1e9), 6) << "slow steps: at least six";
    EXPECT_EQ(probe_steps_per_block(0.0), 40);
}

}  // namespace
}  // namespace trainscope::harness
