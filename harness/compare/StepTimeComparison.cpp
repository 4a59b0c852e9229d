#include "harness/compare/StepTimeComparison.hpp"

#include <cmath>

namespace trainscope::harness {

std::string to_string(Verdict verdict) {
    switch (verdict) {
        case Verdict::Faster: return "faster";
        case Verdict::Slower: return "slower";
        case Verdict::Same: return "same";
        case Verdict::Unclear: return "unclear";
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
    const bool within_margin =
        c.speedup_ci_low >= 1.0 - same_within && c.speedup_ci_high <= 1.0 + same_within;
    if (within_margin) {
        c.verdict = Verdict::Same;  // any difference is smaller than the margin that matters
    } else if (c.speedup_ci_low > 1.0) {
        c.verdict = Verdict::Faster;
    } else if (c.speedup_ci_high < 1.0) {
        c.verdict = Verdict::Slower;
    } else {
        c.verdict = Verdict::Unclear;  // the interval holds 1 and is wider than the margin
    }
    return c;
}

}  // namespace trainscope::harness
