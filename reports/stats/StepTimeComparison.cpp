#include "reports/stats/StepTimeComparison.hpp"

#include <cmath>

namespace trainscope::reports {

std::string to_string(Verdict verdict) {
    switch (verdict) {
        case Verdict::Faster:
            return "faster";
        case Verdict::Slower:
            return "slower";
        case Verdict::Same:
            return "same";
        case Verdict::Unclear:
            return "unclear";
    }
    return "unclear";
}

Comparison compare_step_times(const StepTimeSample& baseline, const StepTimeSample& cell,
                              double same_within) {
    Comparison c;
    if (baseline.mean_ms <= 0 || cell.mean_ms <= 0 || baseline.count < 2 || cell.count < 2) {
        return c;  // nothing to say: unclear, speed-up 0
    }
    c.speedup = baseline.mean_ms / cell.mean_ms;
    // Relative variance of each mean: (s / m)^2 / n.
    const auto relative_variance = [](const StepTimeSample& s) {
        const double cv = s.stdev_ms / s.mean_ms;
        return cv * cv / static_cast<double>(s.count);
    };
    const double relative_se = std::sqrt(relative_variance(baseline) + relative_variance(cell));
    constexpr double kZ975 = 1.959963984540054;
    c.speedup_ci_low = c.speedup * (1.0 - kZ975 * relative_se);
    c.speedup_ci_high = c.speedup * (1.0 + kZ975 * relative_se);
    c.verdict = verdict_of_ratio(c.speedup_ci_low, c.speedup_ci_high, same_within);
    return c;
}

Verdict verdict_of_ratio(double ci_low, double ci_high, double same_within) {
    if (ci_low >= 1.0 - same_within && ci_high <= 1.0 + same_within)
        return Verdict::Same;  // any difference is smaller than the margin that matters
    if (ci_low > 1.0)
        return Verdict::Faster;
    if (ci_high < 1.0)
        return Verdict::Slower;
    return Verdict::Unclear;  // the interval holds 1 and is wider than the margin
}

Comparison scale_comparison(const Comparison& c, double factor, double same_within) {
    if (c.speedup <= 0 || factor <= 0)
        return {};
    Comparison scaled{c.speedup * factor, c.speedup_ci_low * factor, c.speedup_ci_high * factor,
                      Verdict::Unclear};
    scaled.verdict = verdict_of_ratio(scaled.speedup_ci_low, scaled.speedup_ci_high, same_within);
    return scaled;
}

}  // namespace trainscope::reports
