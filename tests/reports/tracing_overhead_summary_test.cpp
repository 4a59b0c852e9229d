// How a run's tracing overhead reads wherever it is shown: a figure with its interval when
// the interval excludes zero, "not measurable" otherwise, nothing for an untraced run.
#include <gtest/gtest.h>

#include "reports/quality/TracingOverheadSummary.hpp"

namespace trainscope::reports {
namespace {

RunRecord run_with(std::vector<Metric> metrics) {
    RunRecord run;
    run.status = RunStatus::Ok;
    run.metrics = std::move(metrics);
    return run;
}

TEST(TracingOverheadSummary, UntracedRunHasNone) {
    EXPECT_FALSE(tracing_overhead_summary(run_with({})).has_value());
    EXPECT_FALSE(tracing_overhead_summary(run_with({{"tracing_overhead_pct_ci_low", 1.0, "%"}}))
                     .has_value());
}

TEST(TracingOverheadSummary, MeasuredOverheadIsAFigureWithItsInterval) {
    const auto text =
        tracing_overhead_summary(run_with({{"tracing_overhead_pct", 3.14, "%"},
                                           {"tracing_overhead_pct_ci_low", 1.2, "%"},
                                           {"tracing_overhead_pct_ci_high", 5.04, "%"}}));
    ASSERT_TRUE(text.has_value());
    EXPECT_EQ(*text, "+3.1 % (95 % CI +1.2 % to +5.0 %)");
}

TEST(TracingOverheadSummary, OverheadInsideTheNoiseIsSaidToBeNotMeasurable) {
    const auto text = tracing_overhead_summary(run_with(
        {{"tracing_overhead_pct_ci_low", -2.0, "%"}, {"tracing_overhead_pct_ci_high", 3.1, "%"}}));
    ASSERT_TRUE(text.has_value());
    EXPECT_EQ(*text, "not measurable: smaller than the noise (95 % CI -2.0 % to +3.1 %)");
}

}  // namespace
}  // namespace trainscope::reports
