#include "reports/metrics/MetricInterval.hpp"

#include <algorithm>
#include <string>

#include "reports/metrics/MetricTags.hpp"

namespace trainscope::reports {

namespace {
std::optional<MetricInterval> stored_pair(const RunRecord& run, const std::string& low_tag,
                                          const std::string& high_tag, std::string_view what) {
    const Metric* lo = run.find_metric(low_tag);
    const Metric* hi = run.find_metric(high_tag);
    if (lo == nullptr || hi == nullptr)
        return std::nullopt;
    return MetricInterval{std::min(lo->value, hi->value), std::max(lo->value, hi->value), what};
}
}  // namespace

std::string_view interval_description(std::string_view metric) {
    if (metric == metric_tag::step_ms_median)
        return "95 % CI of the median (order statistics)";
    if (metric == metric_tag::step_ms_mean)
        return "95 % CI of the mean (Student t)";
    if (metric == metric_tag::images_per_s)
        return "95 % CI from the mean step time's (Student t)";
    return "95 % CI";
}

std::optional<MetricInterval> metric_interval(const RunRecord& run, std::string_view metric) {
    const std::string_view what = interval_description(metric);
    if (metric == metric_tag::step_ms_mean)
        return stored_pair(run, metric_tag::step_ms_ci_low, metric_tag::step_ms_ci_high, what);
    if (metric == metric_tag::images_per_s) {
        const auto step =
            stored_pair(run, metric_tag::step_ms_ci_low, metric_tag::step_ms_ci_high, what);
        if (!step || !run.axes.batch || step->low <= 0)
            return std::nullopt;
        const double images_ms = static_cast<double>(*run.axes.batch) * 1000.0;
        return MetricInterval{images_ms / step->high, images_ms / step->low, what};
    }
    const std::string tag(metric);
    return stored_pair(run, tag + "_ci_low", tag + "_ci_high", what);
}

}  // namespace trainscope::reports
