#include "harness/cli/RooflineText.hpp"

#include <cstdio>
#include <optional>
#include <string>

#include "reports/csv/TerminalText.hpp"
#include "reports/metrics/MetricTags.hpp"
#include "reports/roofline/Roofline.hpp"

namespace trainscope::harness {

namespace {

std::optional<double> metric(const reports::RunRecord& run, std::string_view name) {
    for (const reports::Metric& m : run.metrics) {
        if (m.name == name)
            return m.value;
    }
    return std::nullopt;
}

std::string environment(const reports::RunRecord& run, const std::string& key) {
    const auto it = run.environment.find(key);
    return it == run.environment.end() ? std::string("unknown") : it->second;
}

}  // namespace

void print_roofline(const std::vector<reports::OpRooflineRow>& rows, const reports::RunRecord& run,
                    int top) {
    const reports::Roofs roofs = reports::roofs_of(run.metrics);
    const auto forward = metric(run, reports::metric_tag::model_flops_fwd_per_image);
    const auto backward = metric(run, reports::metric_tag::model_flops_bwd_per_image);
    if (rows.empty() && !forward)
        return;
    std::printf("\nRoofline (multiply-add = 2 FLOPs):\n");
    if (forward && backward) {
        std::printf("  model FLOPs per image: forward %.4g, backward %.4g\n", *forward, *backward);
    }
    if (const auto achieved = metric(run, reports::metric_tag::achieved_tflops)) {
        std::printf("  achieved %.4g TFLOP/s", *achieved);
        if (const auto mfu = metric(run, reports::metric_tag::mfu_pct))
            std::printf(", MFU %.3g %% of the compute roof", *mfu);
        std::printf("\n");
    }
    if (roofs.known()) {
        std::printf("  compute roof %.4g TFLOP/s (%s)\n", roofs.peak_flops_per_s * 1e-12,
                    environment(run, "peak_flops_source").c_str());
        std::printf("  memory roof %.4g GB/s (%s); ridge at %.3g FLOP/byte\n",
                    roofs.peak_bytes_per_s * 1e-9,
                    environment(run, "peak_bandwidth_source").c_str(), roofs.ridge_intensity());
    }
    if (rows.empty())
        return;
    std::printf("  %-24s %8s %12s %12s %12s %12s %8s %8s\n", "op", "count", "device time",
                "FLOP/byte", "GFLOP/s", "GB/s", "of roof", "bound");
    int shown = 0;
    for (const reports::OpRooflineRow& r : rows) {
        if (shown++ >= top)
            break;
        std::printf("  %-24s %8lld %9.3f ms %12.3g %12.4g %12.4g %6.1f %% %8s\n",
                    reports::printable_text(r.name).substr(0, 24).c_str(),
                    static_cast<long long>(r.count), static_cast<double>(r.device_ns) * 1e-6,
                    r.intensity, r.achieved_flops_per_s * 1e-9, r.achieved_bytes_per_s * 1e-9,
                    r.roof_pct, std::string(reports::to_string(r.bound)).c_str());
    }
}

}  // namespace trainscope::harness
