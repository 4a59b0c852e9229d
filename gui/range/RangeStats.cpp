#include "gui/range/RangeStats.hpp"

#include <cmath>

#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/KernelBreakdownAnalysis.hpp"

namespace trainscope::gui {

namespace {

Category gui_category(const profiler::KernelNameStats& entry) {
    if (entry.category != profiler::KernelCategory::MemcpyMemset)
        return classify_kernel_name(entry.name);
    return entry.name.rfind("Memset", 0) == 0 ? Category::Memset : Category::Memcpy;
}

}  // namespace

RangeStats computeRangeStats(const TimelineData& data, double t0_ns, double t1_ns) {
    RangeStats out;
    out.t0_ns = t0_ns;
    out.t1_ns = t1_ns;
    // Integer times: start >= t0 exactly when start >= ceil(t0), likewise for t1.
    const profiler::TimeWindow window{static_cast<std::int64_t>(std::ceil(t0_ns)),
                                      static_cast<std::int64_t>(std::ceil(t1_ns))};
    const profiler::Trace& full = data.trace();
    out.host_ops = profiler::is_host_op_trace(full);
    profiler::Trace host_work;
    if (out.host_ops)
        host_work = profiler::host_ops_as_device_work(full);
    const profiler::Trace& work = out.host_ops ? host_work : full;

    const profiler::KernelBreakdown breakdown = profiler::analyze_kernel_breakdown(work, window);
    out.work_ns = breakdown.total_ns;
    for (const auto& entry : breakdown.by_name) {
        KernelStat s;
        s.name = QString::fromStdString(entry.name);
        s.category = gui_category(entry);
        s.count = entry.stats.count;
        s.total_ns = entry.stats.total_ns;
        s.min_ns = entry.stats.min_ns;
        s.max_ns = entry.stats.max_ns;
        s.share = entry.stats.share;
        s.longest = kNoActivity;
        out.activity_count += s.count;
        out.kernels.push_back(std::move(s));
    }
    profiler::GpuBusyOptions options;
    options.include_copies = true;
    for (const auto& b : profiler::analyze_gpu_busy(work, options, window))
        out.busy.push_back({b.device, b.busy_ns});
    return out;
}

}  // namespace trainscope::gui
