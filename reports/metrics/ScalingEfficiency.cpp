#include "reports/metrics/ScalingEfficiency.hpp"

#include "reports/metrics/MetricTags.hpp"

namespace trainscope::reports {
namespace {

bool same_but_parallelism(const RunRecord& a, const RunRecord& b) {
    for (const std::string& axis : axis_names()) {
        if (axis == "ranks" || axis == "bucket_mb" || axis == "overlap")
            continue;
        if (axis_value(a.axes, axis) != axis_value(b.axes, axis))
            return false;
    }
    return a.matrix_id == b.matrix_id;
}

}  // namespace

std::optional<double> scaling_efficiency(double images_per_s, long long ranks,
                                         double single_rank_images_per_s) {
    if (ranks < 1 || !(single_rank_images_per_s > 0.0))
        return std::nullopt;
    return images_per_s / (static_cast<double>(ranks) * single_rank_images_per_s);
}

std::optional<double> scaling_efficiency(const RunRecord& run, std::span<const RunRecord> runs) {
    const Metric* rate = run.find_metric(metric_tag::images_per_s);
    if (run.status != RunStatus::Ok || rate == nullptr)
        return std::nullopt;
    if (run.axes.ranks.value_or(1) == 1)
        return 1.0;  // its own baseline (overlap and bucket_mb do nothing on one rank)
    // The 1-rank cell with the same overlap, else any 1-rank cell of the same axes.
    const Metric* base = nullptr;
    for (const RunRecord& other : runs) {
        if (other.status != RunStatus::Ok || other.axes.ranks.value_or(1) != 1 ||
            !same_but_parallelism(run, other))
            continue;
        const Metric* rate_of_other = other.find_metric(metric_tag::images_per_s);
        if (rate_of_other != nullptr && (base == nullptr || other.axes.overlap == run.axes.overlap))
            base = rate_of_other;
    }
    if (base == nullptr)
        return std::nullopt;
    return scaling_efficiency(rate->value, run.axes.ranks.value_or(1), base->value);
}

}  // namespace trainscope::reports
