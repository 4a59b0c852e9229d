#pragma once

#include <optional>
#include <string_view>

#include "reports/stats/StepTimeComparison.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// The one comparison of two runs that `trainscope compare` prints and the GUI's Compare
// tab shows: the other run's speed-up over the baseline from the mean step times
// (compare_step_times: delta method, a --same-within band).

// step_ms_mean, step_ms_stdev and step_count of an ok run; nullopt otherwise.
std::optional<StepTimeSample> step_time_sample(const RunRecord& run);

// nullopt when either run has no step statistics.
std::optional<Comparison> compare_runs(const RunRecord& baseline, const RunRecord& other,
                                       double same_within = kDefaultSameWithin);

// Throughput (images/s = batch ÷ mean step time) of `other` over the baseline: the
// step-time comparison times the batch ratio, so a bigger batch with longer steps can
// still be faster in images/s. nullopt without step statistics or a batch.
std::optional<Comparison> compare_throughput(const RunRecord& baseline, const RunRecord& other,
                                             double same_within = kDefaultSameWithin);

// Both comparisons of a pair, what judge_metric needs.
struct RunPairComparison {
    std::optional<Comparison> step_time;
    std::optional<Comparison> throughput;
};
RunPairComparison compare_pair(const RunRecord& baseline, const RunRecord& other,
                               double same_within = kDefaultSameWithin);

// The other run against the baseline for one metric, said with the metric's direction.
enum class Judgement { Better, Worse, Same, Unclear, NotJudged };
std::string_view to_string(Judgement judgement);

struct MetricJudgement {
    Judgement judgement = Judgement::NotJudged;
    // true: from the step-time comparison (noise accounted for, the verdict of
    // `trainscope compare`); false: from the direction alone (no noise estimate).
    bool tested = false;
};

// Mean step time follows the step-time comparison, images/s the throughput comparison
// (faster is better in both); every other metric with a direction is better or worse by
// the sign of b − a, untested; metrics without a direction are not judged.
MetricJudgement judge_metric(std::string_view tag, double baseline_value, double other_value,
                             const RunPairComparison& comparison);

}  // namespace trainscope::reports
