#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "reports/html/SvgBoxPlot.hpp"
#include "reports/stats/SampleStatistics.hpp"

namespace trainscope::reports {
namespace {

TEST(SampleStatistics, MatchesHandComputedValues) {
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32/7
    const std::vector<double> v{9, 2, 5, 4, 4, 7, 4, 5};
    const auto s = summarize(v);
    EXPECT_EQ(s.count, 8u);
    EXPECT_DOUBLE_EQ(s.mean, 5.0);
    EXPECT_DOUBLE_EQ(s.median, 4.5);
    EXPECT_DOUBLE_EQ(s.stdev, std::sqrt(32.0 / 7.0));
    EXPECT_DOUBLE_EQ(s.min, 2.0);
    EXPECT_DOUBLE_EQ(s.max, 9.0);
    // numpy.percentile([2,4,4,4,5,5,7,9], 5) = 2.7, 95 -> 8.3
    EXPECT_NEAR(s.p5, 2.7, 1e-12);
    EXPECT_NEAR(s.p95, 8.3, 1e-12);
    // t(0.975, 7) = 2.364624; half width = t * s / sqrt(8)
    const double half = 2.364624 * std::sqrt(32.0 / 7.0) / std::sqrt(8.0);
    EXPECT_NEAR(s.ci95_low, 5.0 - half, 1e-4);
    EXPECT_NEAR(s.ci95_high, 5.0 + half, 1e-4);
    EXPECT_NEAR(s.relative_standard_error, std::sqrt(32.0 / 7.0) / std::sqrt(8.0) / 5.0, 1e-12);
}

TEST(SampleStatistics, GuardsSmallSamples) {
    EXPECT_EQ(summarize(std::vector<double>{}).count, 0u);
    const auto one = summarize(std::vector<double>{3.0});
    EXPECT_EQ(one.mean, 3.0);
    EXPECT_EQ(one.median, 3.0);
    EXPECT_EQ(one.stdev, 0.0);
    EXPECT_EQ(one.ci95_low, 3.0);
    EXPECT_EQ(one.ci95_high, 3.0);
    const auto same = summarize(std::vector<double>{1.0, 1.0, 1.0});
    EXPECT_EQ(same.stdev, 0.0);
    EXPECT_EQ(same.relative_standard_error, 0.0);
}

std::vector<double> one_to(int n) {
    std::vector<double> v;
    for (int i = n; i >= 1; --i)  // unsorted on purpose
        v.push_back(i);
    return v;
}

TEST(MedianInterval, PicksTheTabulatedOrderStatistics) {
    // Ranks from the binomial tables (e.g. Conover, Practical Nonparametric Statistics):
    // n = 10 -> x(2), x(9); n = 20 -> x(6), x(15); n = 100 -> x(40), x(61).
    EXPECT_DOUBLE_EQ(median_ci95(one_to(10)).low, 2);
    EXPECT_DOUBLE_EQ(median_ci95(one_to(10)).high, 9);
    EXPECT_DOUBLE_EQ(median_ci95(one_to(20)).low, 6);
    EXPECT_DOUBLE_EQ(median_ci95(one_to(20)).high, 15);
    EXPECT_DOUBLE_EQ(median_ci95(one_to(100)).low, 40);
    EXPECT_DOUBLE_EQ(median_ci95(one_to(100)).high, 61);
}

TEST(MedianInterval, SmallSamplesGiveTheRangeAndEmptyGivesZero) {
    EXPECT_DOUBLE_EQ(median_ci95(one_to(5)).low, 1);
    EXPECT_DOUBLE_EQ(median_ci95(one_to(5)).high, 5);
    EXPECT_DOUBLE_EQ(median_ci95(std::vector<double>{7.0}).low, 7.0);
    EXPECT_DOUBLE_EQ(median_ci95(std::vector<double>{}).high, 0.0);
}

TEST(MedianInterval, BelongsToTheMedianNotTheMean) {
    // Skewed like step times: 40 fast steps and 10 slow ones. The mean's interval sits
    // far above the median; the median's own interval holds it.
    std::vector<double> v;
    for (int i = 0; i < 40; ++i)
        v.push_back(10.0 + 0.01 * i);
    for (int i = 0; i < 10; ++i)
        v.push_back(30.0 + i);
    const auto s = summarize(v);
    EXPECT_GT(s.ci95_low, s.median);
    EXPECT_LE(s.median_ci95_low, s.median);
    EXPECT_GE(s.median_ci95_high, s.median);
    EXPECT_LT(s.median_ci95_high, 11.0);
    EXPECT_DOUBLE_EQ(s.median_ci95_low, median_ci95(v).low);
}

TEST(StudentT, MatchesTables) {
    EXPECT_NEAR(student_t_975(1), 12.7062, 1e-4);
    EXPECT_NEAR(student_t_975(5), 2.5706, 1e-4);
    EXPECT_NEAR(student_t_975(10), 2.2281, 1e-3);
    EXPECT_NEAR(student_t_975(30), 2.0423, 1e-3);
    EXPECT_NEAR(student_t_975(1000), 1.9623, 1e-3);
}

TEST(Quantile, InterpolatesLinearlyLikeNumpy) {
    const std::vector<double> v{10, 20, 30, 40};
    EXPECT_DOUBLE_EQ(quantile(v, 0.0), 10);
    EXPECT_DOUBLE_EQ(quantile(v, 1.0), 40);
    EXPECT_DOUBLE_EQ(quantile(v, 0.5), 25);
    EXPECT_DOUBLE_EQ(quantile(v, 0.25), 17.5);
}

// The HTML report's step-time box (box_stats) and the run's stored statistics
// (summarize: step_ms_median, p5, p95, what `trainscope report` prints) are one
// computation: the same numbers to the last bit, on a skewed sample whose quantiles fall
// between order statistics.
TEST(SampleStatistics, TheReportsBoxPlotUsesTheSameQuantiles) {
    std::vector<double> v;
    for (int i = 0; i < 37; ++i)
        v.push_back(10.0 + 0.37 * i + (i % 7 == 0 ? 25.0 * i : 0.0));
    const SampleStatistics s = summarize(v);
    const BoxStats box = box_stats("cell", v);
    EXPECT_EQ(box.count, s.count);
    EXPECT_EQ(box.median, s.median);
    EXPECT_EQ(box.p5, s.p5);
    EXPECT_EQ(box.p95, s.p95);
    EXPECT_EQ(box.p25, quantile(v, 0.25));
    EXPECT_EQ(box.p75, quantile(v, 0.75));
    EXPECT_EQ(box_stats("empty", {}).count, 0u);
}

}  // namespace
}  // namespace trainscope::reports
