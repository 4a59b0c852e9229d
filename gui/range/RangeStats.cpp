#include "gui/range/RangeStats.hpp"

#include <cmath>

#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"

namespace trainscope::gui {

RangeStats computeRangeStats(const TimelineData& data, double t0_ns, double t1_ns) {
    RangeStats out;
    out.t0_ns = t0_ns;
    out.t1_ns = t1_ns;
    out.by_rank = data.trace().names_devices_by_rank();
    // The Kernels tab's table for the same range: one conversion of the breakdown.
    out.kernels = computeKernelStats(data, t0_ns, t1_ns);
    for (const KernelStat& s : out.kernels) {
        out.activity_count += s.count;
        out.work_ns += s.total_ns;
    }
    // Integer times: start >= t0 exactly when start >= ceil(t0), likewise for t1.
    const profiler::TimeWindow window{static_cast<std::int64_t>(std::ceil(t0_ns)),
                                      static_cast<std::int64_t>(std::ceil(t1_ns))};
    const ActivitySelection work = data.deviceWorkIn(t0_ns, t1_ns);
    const profiler::Trace& full = work.trace();
    out.host_ops = data.hostOpTrace();
    profiler::GpuBusyOptions options;
    options.include_copies = true;
    const auto busy = out.host_ops ? profiler::analyze_gpu_busy(
                                         profiler::host_ops_as_device_work(full), options, window)
                                   : profiler::analyze_gpu_busy(full, options, window);
    for (const auto& b : busy)
        out.busy.push_back({b.device, b.busy_ns, b.rank});
    return out;
}

}  // namespace trainscope::gui
