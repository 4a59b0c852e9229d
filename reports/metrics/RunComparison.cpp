#include "reports/metrics/RunComparison.hpp"

#include "reports/metrics/MetricCatalog.hpp"
#include "reports/metrics/MetricTags.hpp"

namespace trainscope::reports {

std::optional<StepTimeSample> step_time_sample(const RunRecord& run) {
    const Metric* mean = run.find_metric(metric_tag::step_ms_mean);
    const Metric* stdev = run.find_metric(metric_tag::step_ms_stdev);
    const Metric* count = run.find_metric(metric_tag::step_count);
    if (run.status != RunStatus::Ok || mean == nullptr || stdev == nullptr || count == nullptr)
        return std::nullopt;
    return StepTimeSample{mean->value, stdev->value, static_cast<std::int64_t>(count->value)};
}

std::optional<Comparison> compare_runs(const RunRecord& baseline, const RunRecord& other,
                                       double same_within) {
    const auto base = step_time_sample(baseline);
    const auto cell = step_time_sample(other);
    if (!base || !cell)
        return std::nullopt;
    return compare_step_times(*base, *cell, same_within);
}

std::optional<Comparison> compare_throughput(const RunRecord& baseline, const RunRecord& other,
                                             double same_within) {
    const auto steps = compare_runs(baseline, other, same_within);
    if (!steps || !baseline.axes.batch || !other.axes.batch || *baseline.axes.batch <= 0)
        return std::nullopt;
    const double batch_ratio =
        static_cast<double>(*other.axes.batch) / static_cast<double>(*baseline.axes.batch);
    return scale_comparison(*steps, batch_ratio, same_within);
}

RunPairComparison compare_pair(const RunRecord& baseline, const RunRecord& other,
                               double same_within) {
    return {compare_runs(baseline, other, same_within),
            compare_throughput(baseline, other, same_within)};
}

namespace {
Judgement judgement_of(Verdict verdict) {
    switch (verdict) {
        case Verdict::Faster:
            return Judgement::Better;
        case Verdict::Slower:
            return Judgement::Worse;
        case Verdict::Same:
            return Judgement::Same;
        case Verdict::Unclear:
            return Judgement::Unclear;
    }
    return Judgement::Unclear;
}
}  // namespace

std::string_view to_string(Judgement judgement) {
    switch (judgement) {
        case Judgement::Better:
            return "better";
        case Judgement::Worse:
            return "worse";
        case Judgement::Same:
            return "same";
        case Judgement::Unclear:
            return "unclear";
        case Judgement::NotJudged:
            return "";
    }
    return "";
}

MetricJudgement judge_metric(std::string_view tag, double baseline_value, double other_value,
                             const RunPairComparison& comparison) {
    if (tag == metric_tag::step_ms_mean && comparison.step_time)
        return {judgement_of(comparison.step_time->verdict), true};
    if (tag == metric_tag::images_per_s && comparison.throughput)
        return {judgement_of(comparison.throughput->verdict), true};
    const MetricInfo* info = find_metric_info(tag);
    if (info == nullptr || info->direction == Direction::Neither)
        return {};
    if (other_value == baseline_value)
        return {Judgement::Same, false};
    const bool higher = other_value > baseline_value;
    const bool better = higher == (info->direction == Direction::HigherIsBetter);
    return {better ? Judgement::Better : Judgement::Worse, false};
}

}  // namespace trainscope::reports
