#include "reports/quality/TracingOverheadSummary.hpp"

#include <fmt/format.h>

#include "reports/metrics/MetricTags.hpp"

namespace trainscope::reports {

std::optional<std::string> tracing_overhead_summary(const RunRecord& run) {
    const Metric* low = run.find_metric(metric_tag::tracing_overhead_pct_ci_low);
    const Metric* high = run.find_metric(metric_tag::tracing_overhead_pct_ci_high);
    if (low == nullptr || high == nullptr)
        return std::nullopt;
    const std::string interval =
        fmt::format("95 % CI {:+.1f} % to {:+.1f} %", low->value, high->value);
    if (const Metric* overhead = run.find_metric(metric_tag::tracing_overhead_pct))
        return fmt::format("{:+.1f} % ({})", overhead->value, interval);
    return "not measurable: smaller than the noise (" + interval + ")";
}

}  // namespace trainscope::reports
