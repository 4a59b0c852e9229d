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

std::optional<MetricPoint> metric_point(std::span<const RunRecord* const> runs,
                                        std::string_view metric) {
    MetricPoint point;
    double sum = 0.0;
    bool every_interval = true;
    const std::string tag(metric);
    for (const RunRecord* run : runs) {
        const Metric* m = run->find_metric(tag);
        if (m == nullptr)
            continue;
        sum += m->value;
        ++point.runs;
        const auto ci = metric_interval(*run, metric);
        every_interval = every_interval && ci.has_value();
        if (!ci || !every_interval)
            continue;
        if (!point.interval) {
            point.interval = ci;
        } else {
            point.interval->low = std::min(point.interval->low, ci->low);
            point.interval->high = std::max(point.interval->high, ci->high);
        }
    }
    if (point.runs == 0)
        return std::nullopt;
    if (!every_interval)
        point.interval.reset();
    point.value = sum / static_cast<double>(point.runs);
    return point;
}

}  // namespace trainscope::reports
