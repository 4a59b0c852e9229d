#include "reports/quality/MeasurementWarnings.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "reports/metrics/MetricTags.hpp"

namespace trainscope::reports {
namespace {

double metric_or_zero(const RunRecord& run, const char* name) {
    const Metric* m = run.find_metric(name);
    return m != nullptr ? m->value : 0.0;
}

}  // namespace

std::vector<MeasurementWarning> measurement_warnings(const RunRecord& run) {
    std::vector<MeasurementWarning> warnings;
    const double other = metric_or_zero(run, metric_tag::host_other_cpu_pct);
    const double steal = metric_or_zero(run, metric_tag::host_steal_pct);
    if (other > kBusyHostOtherCpuPct || steal > kBusyHostStealPct) {
        warnings.push_back(
            {"busy host",
             fmt::format("the machine was busy: other processes used {:.1f} % of its CPU time "
                         "(hypervisor steal {:.1f} %); these timings include waiting for cores",
                         other, steal)});
    }
    if (const double throttled = metric_or_zero(run, metric_tag::throttled_sample_pct);
        throttled > 0.0) {
        const auto bits =
            static_cast<std::uint64_t>(metric_or_zero(run, metric_tag::throttle_reasons_seen));
        warnings.push_back(
            {"throttled",
             fmt::format("the GPU throttled during {:.1f} % of the NVML samples (reasons bitmask "
                         "{:#x})",
                         throttled, bits)});
    }
    return warnings;
}

}  // namespace trainscope::reports
