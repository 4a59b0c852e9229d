#include "reports/roofline/Roofline.hpp"

#include <algorithm>

#include "profiler/analysis/KernelCategory.hpp"
#include "profiler/analysis/OpWork.hpp"
#include "reports/metrics/MetricTags.hpp"

namespace trainscope::reports {

namespace {

std::optional<double> find(const std::vector<Metric>& metrics, std::string_view name) {
    for (const Metric& m : metrics) {
        if (m.name == name)
            return m.value;
    }
    return std::nullopt;
}

}  // namespace

double Roofs::attainable_flops_per_s(double intensity) const {
    return std::min(peak_flops_per_s, intensity * peak_bytes_per_s);
}

Roofs roofs_of(const std::vector<Metric>& metrics) {
    Roofs roofs;
    roofs.peak_flops_per_s = find(metrics, metric_tag::peak_tflops).value_or(0.0) * 1e12;
    roofs.peak_bytes_per_s = find(metrics, metric_tag::peak_bandwidth_gbps).value_or(0.0) * 1e9;
    return roofs;
}

std::vector<Metric> roofline_run_metrics(const std::vector<Metric>& metrics, int devices) {
    const auto images_per_s = find(metrics, metric_tag::images_per_s);
    const auto forward = find(metrics, metric_tag::model_flops_fwd_per_image);
    const auto backward = find(metrics, metric_tag::model_flops_bwd_per_image);
    if (!images_per_s || !forward || !backward)
        return {};
    const double achieved = (*forward + *backward) * *images_per_s;
    std::vector<Metric> derived{{metric_tag::achieved_tflops, achieved * 1e-12}};
    if (const auto peak = find(metrics, metric_tag::peak_tflops); peak && *peak > 0.0)
        derived.push_back(
            {metric_tag::mfu_pct, 100.0 * achieved * 1e-12 / (*peak * std::max(devices, 1))});
    return derived;
}

std::string_view to_string(Bound bound) {
    switch (bound) {
        case Bound::memory:
            return "memory";
        case Bound::compute:
            return "compute";
        case Bound::unknown:
            break;
    }
    return "unknown";
}

namespace {

OpRooflineRow roofline_row(const profiler::OpWorkTotals& t, const Roofs& roofs) {
    OpRooflineRow row;
    row.name = t.name;
    row.category = std::string(profiler::to_string(profiler::classify_kernel(t.name)));
    row.count = t.count;
    row.flops = t.flops;
    row.bytes = t.bytes;
    row.device_ns = t.device_ns;
    row.intensity = t.bytes > 0.0 ? t.flops / t.bytes : 0.0;
    if (t.device_ns > 0) {
        const double seconds = static_cast<double>(t.device_ns) * 1e-9;
        row.achieved_flops_per_s = t.flops / seconds;
        row.achieved_bytes_per_s = t.bytes / seconds;
    }
    if (roofs.known() && t.bytes > 0.0) {
        row.bound = row.intensity < roofs.ridge_intensity() ? Bound::memory : Bound::compute;
        // Against the roof that limits it: FLOP/s under the compute roof, bandwidth
        // under the memory roof (an op without FLOPs is a copy: bandwidth only).
        row.roof_pct =
            row.bound == Bound::compute || t.flops > 0.0
                ? 100.0 * row.achieved_flops_per_s / roofs.attainable_flops_per_s(row.intensity)
                : 100.0 * row.achieved_bytes_per_s / roofs.peak_bytes_per_s;
    }
    return row;
}

std::vector<OpRooflineRow> roofline_rows(const std::vector<profiler::OpWorkTotals>& totals,
                                         const Roofs& roofs) {
    std::vector<OpRooflineRow> rows;
    rows.reserve(totals.size());
    for (const profiler::OpWorkTotals& t : totals)
        rows.push_back(roofline_row(t, roofs));
    return rows;
}

}  // namespace

std::vector<OpRooflineRow> op_roofline(const std::vector<profiler::OpWorkTotals>& totals,
                                       const Roofs& roofs) {
    return roofline_rows(totals, roofs);
}

std::vector<OpRooflineRow> op_roofline(const profiler::Trace& trace, const Roofs& roofs,
                                       const profiler::TimeWindow& window) {
    return roofline_rows(profiler::total_op_work_by_name(trace, window), roofs);
}

std::map<std::int32_t, std::vector<OpRooflineRow>> op_roofline_by_rank(
    const profiler::Trace& trace, const Roofs& roofs, const profiler::TimeWindow& window) {
    std::map<std::int32_t, std::vector<OpRooflineRow>> rows;
    for (const auto& [rank, totals] : profiler::total_op_work_by_rank(trace, window))
        rows[rank] = roofline_rows(totals, roofs);
    return rows;
}

}  // namespace trainscope::reports
