#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "reports/store/RunRecord.hpp"

namespace trainscope::reports {

// The confidence interval that belongs to the statistic a metric is: a median gets the
// median's own (order-statistic) interval, a mean the mean's (Student t). Charts and
// compare draw these, never one statistic's interval around another.
struct MetricInterval {
    double low = 0.0;
    double high = 0.0;
    std::string_view what;  // "95 % CI of the median (order statistics)"
};

// The interval of `metric` in `run`: step_ms_median from step_ms_median_ci_low/high,
// step_ms_mean from step_ms_ci_low/high, images_per_s from the mean step time's interval
// and the batch (images/s is batch ÷ mean step time), any other metric from
// <metric>_ci_low/high. nullopt when the run does not store it (a run recorded before
// the median's interval was stored has none: it does not borrow the mean's).
std::optional<MetricInterval> metric_interval(const RunRecord& run, std::string_view metric);

// One point of a chart that several runs share (same x; other axes vary): the mean of
// their values and, when every run has its interval (metric_interval), the envelope of
// those intervals (lowest low, highest high): a bar that holds each run's own. The GUI's
// run charts and the HTML report's throughput chart both draw this. nullopt when no run
// has the metric; runs without it are left out.
struct MetricPoint {
    double value = 0.0;
    std::size_t runs = 0;
    std::optional<MetricInterval> interval;
};
std::optional<MetricPoint> metric_point(std::span<const RunRecord* const> runs,
                                        std::string_view metric);

// What metric_interval would draw for `metric`, whether or not a run has it.
std::string_view interval_description(std::string_view metric);

}  // namespace trainscope::reports
