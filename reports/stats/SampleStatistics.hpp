#pragma once

#include <cstddef>
#include <span>

namespace trainscope::reports {

// Summary of a sample (step times, in whatever unit the caller uses). Edge cases are
// guarded: n = 0 gives all zeros, n = 1 gives zero spread and a degenerate interval.
struct SampleStatistics {
    std::size_t count = 0;
    double mean = 0.0;
    double median = 0.0;
    double stdev = 0.0;  // sample standard deviation (n - 1)
    double min = 0.0;
    double max = 0.0;
    double p5 = 0.0;
    double p95 = 0.0;
    double ci95_low = 0.0;  // Student-t 95 % confidence interval of the mean
    double ci95_high = 0.0;
    double median_ci95_low = 0.0;  // order-statistic 95 % interval of the median
    double median_ci95_high = 0.0;
    double relative_standard_error = 0.0;  // (stdev / sqrt(n)) / mean
};

SampleStatistics summarize(std::span<const double> values);

// Quantile with linear interpolation between order statistics (numpy's default,
// Hyndman-Fan type 7); q in [0, 1]. The input need not be sorted.
double quantile(std::span<const double> values, double q);
// The same on values already sorted ascending (no copy): for several quantiles of one
// sample. 0 for an empty sample.
double quantile_sorted(std::span<const double> sorted, double q);

// Distribution-free 95 % confidence interval of the median: the order statistics
// x_(k) and x_(n+1-k) with the largest k for which Binomial(n, 1/2) puts at most 2.5 %
// below k. Step times are skewed (a few slow steps), so the mean's Student-t interval
// says nothing about the median. With n <= 5 no pair of order statistics reaches 95 %
// and the interval is [min, max]. The input need not be sorted.
struct Interval {
    double low = 0.0;
    double high = 0.0;
};
Interval median_ci95(std::span<const double> values);

// Two-sided 95 % critical value of Student's t with `degrees_of_freedom`.
double student_t_975(std::size_t degrees_of_freedom);

}  // namespace trainscope::reports
