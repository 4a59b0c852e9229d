// When a run's timings are flagged as measuring more than the workload: a busy machine or
// a throttling GPU, with the figures in the sentence and a short tag for status cells.
#include <gtest/gtest.h>

#include "reports/quality/MeasurementWarnings.hpp"

namespace trainscope::reports {
namespace {

RunRecord run_with(std::vector<Metric> metrics) {
    RunRecord run;
    run.status = RunStatus::Ok;
    run.metrics = std::move(metrics);
    return run;
}

TEST(MeasurementWarnings, CleanRunsAndRunsWithoutTheMetricsHaveNone) {
    EXPECT_TRUE(measurement_warnings(run_with({})).empty());
    EXPECT_TRUE(measurement_warnings(run_with({{"host_other_cpu_pct", kBusyHostOtherCpuPct, "%"},
                                               {"host_steal_pct", kBusyHostStealPct, "%"},
                                               {"throttled_sample_pct", 0.0, "%"}}))
                    .empty());
}

TEST(MeasurementWarnings, BusyHostAndThrottlingAreNamedWithTheirFigures) {
    const auto busy = measurement_warnings(run_with({{"host_other_cpu_pct", 37.25, "%"}}));
    ASSERT_EQ(busy.size(), 1u);
    EXPECT_EQ(busy[0].tag, "busy host");
    EXPECT_NE(busy[0].text.find("37.2 %"), std::string::npos) << busy[0].text;
    const auto steal = measurement_warnings(run_with({{"host_steal_pct", 9.0, "%"}}));
    ASSERT_EQ(steal.size(), 1u);
    EXPECT_NE(steal[0].text.find("steal 9.0 %"), std::string::npos) << steal[0].text;
    const auto both = measurement_warnings(run_with({{"host_other_cpu_pct", 50.0, "%"},
                                                     {"throttled_sample_pct", 3.5, "%"},
                                                     {"throttle_reasons_seen", 0x24, "bitmask"}}));
    ASSERT_EQ(both.size(), 2u);
    EXPECT_EQ(both[1].tag, "throttled");
    EXPECT_NE(both[1].text.find("0x24"), std::string::npos) << both[1].text;
}

}  // namespace
}  // namespace trainscope::reports
