#pragma once

#include <cstdint>
#include <string>

namespace trainscope::reports {

// Mean step time of one cell with its spread: what a comparison needs.
struct StepTimeSample {
    double mean_ms = 0.0;
    double stdev_ms = 0.0;
    std::int64_t count = 0;
};

// Relative difference below which `compare` calls two cells the same (--same-within).
inline constexpr double kDefaultSameWithin = 0.02;

enum class Verdict { Faster, Slower, Same, Unclear };
std::string to_string(Verdict verdict);

// A cell against its baseline. speedup = baseline mean / cell mean (> 1: the cell is
// faster), with a 95 % interval from the delta method on the ratio of two independent
// means (Welch-style, normal quantile). Verdict: faster or slower when the interval
// excludes 1 and is not wholly inside 1 ± same_within; same when it lies within
// 1 ± same_within; unclear when it holds 1 but is wider than that (too noisy to tell).
struct Comparison {
    double speedup = 0.0;
    double speedup_ci_low = 0.0;
    double speedup_ci_high = 0.0;
    Verdict verdict = Verdict::Unclear;
};

Comparison compare_step_times(const StepTimeSample& baseline, const StepTimeSample& cell,
                              double same_within = kDefaultSameWithin);

// The verdict rule above for a ratio's 95 % interval (> 1: better).
Verdict verdict_of_ratio(double ci_low, double ci_high, double same_within = kDefaultSameWithin);

// A comparison of a quantity that is the compared one times a known constant (images
// per second = batch ÷ step time: the step-time speed-up times the batch ratio), with
// its verdict re-derived. An unclear, empty comparison stays so.
Comparison scale_comparison(const Comparison& c, double factor,
                            double same_within = kDefaultSameWithin);

}  // namespace trainscope::reports
