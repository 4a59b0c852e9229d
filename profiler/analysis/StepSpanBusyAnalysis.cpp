#include "profiler/analysis/StepSpanBusyAnalysis.hpp"

#include <algorithm>
#include <unordered_map>

#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/IntervalSet.hpp"

namespace trainscope::profiler {

StepSpanBusy analyze_step_span_busy(const Trace& trace, const std::string& step_prefix) {
    StepSpanBusy result;
    std::vector<Interval> steps;
    std::unordered_map<std::uint64_t, std::int64_t> gpu_end_by_correlation;
    std::vector<Interval> kernels;
    for (const Activity& a : trace.activities) {
        const bool host_range = a.kind == ActivityKind::HostOp || a.kind == ActivityKind::NvtxRange;
        if (host_range && trace.lanes.at(a.lane).device < 0 &&
            trace.strings.at(a.name).starts_with(step_prefix)) {
            steps.push_back({a.start_ns, a.end_ns});
        }
        if (is_gpu_work(a.kind) && a.correlation != 0) {
            auto [it, inserted] = gpu_end_by_correlation.emplace(a.correlation, a.end_ns);
            if (!inserted)
                it->second = std::max(it->second, a.end_ns);
        }
        if (a.kind == ActivityKind::Kernel)
            kernels.push_back({a.start_ns, a.end_ns});
    }
    if (steps.empty())
        return result;
    std::sort(steps.begin(), steps.end(),
              [](const Interval& x, const Interval& y) { return x.begin_ns < y.begin_ns; });

    // Stretch each step to the GPU work launched by API calls that begin inside it.
    std::vector<std::int64_t> stretched_end(steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i)
        stretched_end[i] = steps[i].end_ns;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::RuntimeApi && a.kind != ActivityKind::DriverApi)
            continue;
        const auto gpu_end = gpu_end_by_correlation.find(a.correlation);
        if (gpu_end == gpu_end_by_correlation.end())
            continue;
        auto step =
            std::upper_bound(steps.begin(), steps.end(), a.start_ns,
                             [](std::int64_t t, const Interval& s) { return t < s.begin_ns; });
        if (step == steps.begin())
            continue;
        --step;
        if (a.start_ns >= step->end_ns)
            continue;
        auto& end = stretched_end[static_cast<std::size_t>(step - steps.begin())];
        end = std::max(end, gpu_end->second);
    }
    result.step_count = static_cast<std::int64_t>(steps.size());
    result.span_begin_ns = steps.front().begin_ns;
    result.span_end_ns = *std::max_element(stretched_end.begin(), stretched_end.end());
    result.span_ns = result.span_end_ns - result.span_begin_ns;
    const std::vector<Interval> window{{result.span_begin_ns, result.span_end_ns}};
    const auto busy = intersect_intervals(merge_intervals(std::move(kernels)), window);
    result.busy_ns = total_length_ns(busy);
    result.busy_fraction = result.span_ns > 0 ? static_cast<double>(result.busy_ns) /
                                                    static_cast<double>(result.span_ns)
                                              : 0.0;
    return result;
}

}  // namespace trainscope::profiler
