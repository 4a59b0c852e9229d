#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "harness/capture/CellCapture.hpp"
#include "harness/capture/TelemetryWindow.hpp"
#include "reports/metrics/MetricCatalog.hpp"

namespace trainscope::harness {
namespace {

profiler::CounterSeries series(const std::string& name,
                               std::vector<profiler::CounterSample> samples) {
    return profiler::CounterSeries{name, "", 0, std::move(samples)};
}

std::map<std::string, double> by_name(const std::vector<reports::Metric>& metrics) {
    std::map<std::string, double> out;
    for (const auto& m : metrics)
        out[m.name] = m.value;
    return out;
}

TEST(TelemetryWindow, InterpolatesLinearlyBetweenSamplesAndNotBeyondThem) {
    const auto s = series("power", {{0, 100.0}, {100, 200.0}, {300, 0.0}});
    EXPECT_DOUBLE_EQ(*interpolate_at(s, 0), 100.0);
    EXPECT_DOUBLE_EQ(*interpolate_at(s, 25), 125.0);
    EXPECT_DOUBLE_EQ(*interpolate_at(s, 100), 200.0);
    EXPECT_DOUBLE_EQ(*interpolate_at(s, 200), 100.0);
    EXPECT_DOUBLE_EQ(*interpolate_at(s, 300), 0.0);
    EXPECT_FALSE(interpolate_at(s, -1).has_value());
    EXPECT_FALSE(interpolate_at(s, 301).has_value());
    EXPECT_FALSE(interpolate_at(series("power", {}), 0).has_value());
}

TEST(TelemetryWindow, MeanIsTimeWeightedOverTheWindowOnly) {
    // 50 W while building the model, 300 W while training, 50 W in evaluation after.
    const auto s =
        series("power",
               {{0, 50.0}, {1000, 50.0}, {1001, 300.0}, {2000, 300.0}, {2001, 50.0}, {5000, 50.0}});
    const TimeInterval window[] = {{1001, 2000}};
    const auto stats = window_mean_max(s, window);
    ASSERT_TRUE(stats.has_value());
    EXPECT_DOUBLE_EQ(stats->mean, 300.0);
    EXPECT_DOUBLE_EQ(stats->max, 300.0);
}

TEST(TelemetryWindow, MeanOfARampBetweenSparseSamplesIsTheTrapezoid) {
    // 100 ms samples, a 50 ms window in between: no sample inside, still an answer.
    const auto s = series("sm_clock", {{0, 1000.0}, {100, 2000.0}});
    const TimeInterval window[] = {{25, 75}};
    const auto stats = window_mean_max(s, window);
    ASSERT_TRUE(stats.has_value());
    EXPECT_DOUBLE_EQ(stats->mean, 1500.0);
    EXPECT_DOUBLE_EQ(stats->max, 1750.0);
}

TEST(TelemetryWindow, SeveralIntervalsWeighByLengthAndSkipTheGap) {
    const auto s =
        series("gpu_utilization",
               {{0, 100.0}, {10, 100.0}, {11, 0.0}, {20, 0.0}, {21, 100.0}, {40, 100.0}});
    // Two training stretches (lengths 10 and 19) around an idle evaluation.
    const TimeInterval window[] = {{0, 10}, {21, 40}};
    const auto stats = window_mean_max(s, window);
    ASSERT_TRUE(stats.has_value());
    EXPECT_DOUBLE_EQ(stats->mean, 100.0);
}

TEST(TelemetryWindow, NothingIsSaidWhenTheSamplesDoNotCoverTheWindow) {
    const auto s = series("power", {{100, 1.0}, {200, 2.0}});
    const TimeInterval early[] = {{50, 150}};
    const TimeInterval late[] = {{150, 250}};
    EXPECT_FALSE(window_mean_max(s, early).has_value());
    EXPECT_FALSE(window_increase(s, late).has_value());
    EXPECT_FALSE(window_mean_max(s, {}).has_value());
}

TEST(TelemetryWindow, EnergyIsTheCounterInterpolatedAtTheWindowEdges) {
    // Energy counter (J): 1 J/ms before and after, 3 J/ms while training in [100, 200].
    const auto energy =
        series("energy", {{0, 0.0}, {100, 100.0}, {150, 250.0}, {200, 400.0}, {300, 500.0}});
    const TimeInterval window[] = {{120, 180}};  // edges between samples
    EXPECT_DOUBLE_EQ(*window_increase(energy, window), 180.0);
    const TimeInterval split[] = {{100, 140}, {160, 200}};
    EXPECT_DOUBLE_EQ(*window_increase(energy, split), 240.0);
}

TEST(TelemetryWindow, ThrottleReadingsInEffectIncludeTheOneBeforeTheWindow) {
    // Power cap (0x4) read at 90, cleared at 150; idle (0x1) only before the window.
    const auto reasons = series("clocks_throttle_reasons",
                                {{0, 1.0}, {90, 4.0}, {150, 0.0}, {210, 0.0}, {400, 1.0}});
    const TimeInterval window[] = {{100, 300}};
    const auto bits = window_bitmask(reasons, window, kSlowdownReasons);
    ASSERT_TRUE(bits.has_value());
    EXPECT_EQ(bits->seen, 4u);                         // idle at 0 and 400 is outside
    EXPECT_DOUBLE_EQ(bits->flagged_pct, 100.0 / 3.0);  // 90 (in effect), 150, 210
    const TimeInterval before_first[] = {{-10, 5}};
    EXPECT_FALSE(window_bitmask(reasons, before_first, kSlowdownReasons).has_value());
}

TEST(TelemetryWindow, MetricsCoverOnlyTheMeasuredStepsAndDivideByThem) {
    // Capture: model build and warm-up in [0, 1000), 10 measured steps in [1000, 2000],
    // evaluation after. Power 100 W outside, 250 W inside; the energy counter (J) grows
    // 100 J before, 250 J during and 100 J after the measured steps.
    std::vector<profiler::CounterSeries> all = {
        series(
            "power",
            {{0, 100.0}, {999, 100.0}, {1000, 250.0}, {2000, 250.0}, {2001, 100.0}, {3000, 100.0}}),
        series("energy", {{0, 0.0}, {1000, 100.0}, {2000, 350.0}, {3000, 450.0}}),
        series("sm_clock", {{0, 500.0}, {1000, 1800.0}, {2000, 1800.0}, {3000, 500.0}}),
    };
    const TimeInterval window[] = {{1000, 2000}};
    const auto m = by_name(window_telemetry_metrics(all, window, 10));
    EXPECT_DOUBLE_EQ(m.at("power_w_mean"), 250.0);
    EXPECT_DOUBLE_EQ(m.at("power_w_max"), 250.0);
    EXPECT_DOUBLE_EQ(m.at("sm_clock_mhz_mean"), 1800.0);
    EXPECT_DOUBLE_EQ(m.at("energy_per_step_j"), 25.0);  // 250 J over 10 steps, not 450/N
    EXPECT_EQ(m.count("temperature_c_mean"), 0u);       // no series, no metric
    EXPECT_TRUE(window_telemetry_metrics(all, {}, 10).empty());
}

// The GUI, the CSV files and compare name and judge a metric by its catalog entry.
TEST(TelemetryWindow, EveryTelemetryMetricHasACatalogEntry) {
    std::vector<profiler::CounterSeries> all = {
        series("power", {{0, 100.0}, {3000, 100.0}}),
        series("energy", {{0, 0.0}, {3000, 450.0}}),
        series("sm_clock", {{0, 500.0}, {3000, 500.0}}),
        series("temperature", {{0, 50.0}, {3000, 60.0}}),
        series("gpu_utilization", {{0, 90.0}, {3000, 95.0}}),
        series("clocks_throttle_reasons", {{0, 4.0}, {3000, 4.0}}),
    };
    const TimeInterval window[] = {{1000, 2000}};
    const auto metrics = window_telemetry_metrics(all, window, 10);
    EXPECT_EQ(metrics.size(), 11u);
    for (const reports::Metric& m : metrics)
        EXPECT_NE(reports::find_metric_info(m.name), nullptr) << m.name;
}

TEST(CellCaptureNvml, ACudaCellWithoutABusIdRecordsWhyAndNoTelemetry) {
    // Never another GPU's telemetry: no bus id, no NVML sampler at all.
    CellCapture capture(profiler::TraceLevel::Off, workloads::BackendKind::cuda,
                        CaptureDevice{2, ""});
    const CapturedCell captured = capture.stop({}, 0);
    EXPECT_EQ(captured.metadata.at("nvml_device"),
              "not found: CUDA reported no PCI bus id for device 2; no GPU telemetry recorded");
    for (const auto& m : captured.telemetry_metrics)
        EXPECT_EQ(m.name.rfind("host_", 0), 0u) << m.name;  // only the host-load metrics
}

}  // namespace
}  // namespace trainscope::harness
