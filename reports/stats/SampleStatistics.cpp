#include "reports/stats/SampleStatistics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

namespace trainscope::reports {

double quantile_sorted(std::span<const double> sorted, double q) {
    if (sorted.empty())
        return 0.0;
    const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const auto upper = std::min(lower + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(lower);
    return sorted[lower] + fraction * (sorted[upper] - sorted[lower]);
}

namespace {

Interval median_ci95_sorted(const std::vector<double>& sorted) {
    if (sorted.empty())
        return {};
    const std::size_t n = sorted.size();
    // Largest k with P(B <= k - 1) <= 0.025, B ~ Binomial(n, 1/2); log space keeps the
    // terms finite for any n.
    const double log_norm =
        std::lgamma(static_cast<double>(n) + 1.0) - static_cast<double>(n) * std::log(2.0);
    double cdf = 0.0;
    std::size_t k = 0;  // 0: not even the extremes reach the level
    for (std::size_t i = 0; i < n / 2; ++i) {
        cdf += std::exp(log_norm - std::lgamma(static_cast<double>(i) + 1.0) -
                        std::lgamma(static_cast<double>(n - i) + 1.0));
        if (cdf > 0.025)
            break;
        k = i + 1;
    }
    const std::size_t lower = k == 0 ? 0 : k - 1;  // 0-based x_(k)
    return {sorted[lower], sorted[n - 1 - lower]};
}
}  // namespace

Interval median_ci95(std::span<const double> values) {
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    return median_ci95_sorted(sorted);
}

double quantile(std::span<const double> values, double q) {
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    return quantile_sorted(sorted, q);
}

double student_t_975(std::size_t degrees_of_freedom) {
    // Exact values where the series below is poor; the Cornish-Fisher expansion around
    // the normal quantile is accurate to better than 1e-3 from 8 degrees of freedom on.
    static constexpr std::array<double, 8> kSmall{0.0,     12.7062, 4.30265, 3.18245,
                                                  2.77645, 2.57058, 2.44691, 2.36462};
    if (degrees_of_freedom == 0)
        return 0.0;
    if (degrees_of_freedom < kSmall.size())
        return kSmall[degrees_of_freedom];
    const double z = 1.959963984540054;
    const double v = static_cast<double>(degrees_of_freedom);
    const double z3 = z * z * z;
    const double z5 = z3 * z * z;
    const double z7 = z5 * z * z;
    return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v) +
           (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v);
}

SampleStatistics summarize(std::span<const double> values) {
    SampleStatistics s;
    s.count = values.size();
    if (values.empty())
        return s;
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    const double n = static_cast<double>(sorted.size());
    s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / n;
    s.median = quantile_sorted(sorted, 0.5);
    s.min = sorted.front();
    s.max = sorted.back();
    s.p5 = quantile_sorted(sorted, 0.05);
    s.p95 = quantile_sorted(sorted, 0.95);
    const Interval median_ci = median_ci95_sorted(sorted);
    s.median_ci95_low = median_ci.low;
    s.median_ci95_high = median_ci.high;
    if (sorted.size() >= 2) {
        double sum_sq = 0.0;
        for (double x : sorted)
            sum_sq += (x - s.mean) * (x - s.mean);
        s.stdev = std::sqrt(std::max(0.0, sum_sq / (n - 1)));
    }
    const double standard_error = sorted.size() >= 2 ? s.stdev / std::sqrt(n) : 0.0;
    const double half_width = student_t_975(sorted.size() - 1) * standard_error;
    s.ci95_low = s.mean - half_width;
    s.ci95_high = s.mean + half_width;
    s.relative_standard_error = s.mean != 0.0 ? standard_error / std::abs(s.mean) : 0.0;
    return s;
}

}  // namespace trainscope::reports
