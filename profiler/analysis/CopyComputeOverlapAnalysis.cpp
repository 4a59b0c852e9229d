#include "profiler/analysis/CopyComputeOverlapAnalysis.hpp"

#include "profiler/analysis/DeviceSweep.hpp"

namespace trainscope::profiler {

std::vector<CopyComputeOverlap> analyze_copy_compute_overlap(const Trace& trace) {
    return analyze_copy_compute_overlap(DeviceWorkAccumulator::of(trace));
}

std::vector<CopyComputeOverlap> analyze_copy_compute_overlap(const DeviceWorkAccumulator& work) {
    std::vector<CopyComputeOverlap> result;
    for (const auto& [key, device_work] : work.devices()) {
        if (device_work.kernel_count == 0 && device_work.copy_count == 0)
            continue;
        // The figures as the run metrics' DeviceWorkSummary measures them.
        const DeviceSweepFigures figures = DeviceSweep::of(merge_intervals(device_work.kernels),
                                                           merge_intervals(device_work.copies));
        CopyComputeOverlap o;
        o.rank = key.rank;
        o.device = key.device;
        o.copy_ns = figures.copy_ns;
        o.compute_ns = figures.kernel_ns;
        o.overlap_ns = figures.overlap_ns;
        o.exposed_copy_ns = o.copy_ns - o.overlap_ns;
        o.overlapped_copy_fraction =
            o.copy_ns > 0 ? static_cast<double>(o.overlap_ns) / static_cast<double>(o.copy_ns)
                          : 0.0;
        result.push_back(o);
    }
    return result;
}

}  // namespace trainscope::profiler
