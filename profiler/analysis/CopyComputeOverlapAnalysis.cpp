#include "profiler/analysis/CopyComputeOverlapAnalysis.hpp"

#include <set>

#include "profiler/analysis/GpuWork.hpp"

namespace trainscope::profiler {

std::vector<CopyComputeOverlap> analyze_copy_compute_overlap(const Trace& trace) {
    auto copies = intervals_by_device(trace, {ActivityKind::Memcpy});
    auto kernels = intervals_by_device(trace, {ActivityKind::Kernel});
    std::set<std::int32_t> devices;
    for (const auto& [device, unused] : copies)
        devices.insert(device);
    for (const auto& [device, unused] : kernels)
        devices.insert(device);

    std::vector<CopyComputeOverlap> result;
    for (const std::int32_t device : devices) {
        const auto copy_union = merge_intervals(copies[device]);
        const auto compute_union = merge_intervals(kernels[device]);
        CopyComputeOverlap o;
        o.device = device;
        o.copy_ns = total_length_ns(copy_union);
        o.compute_ns = total_length_ns(compute_union);
        o.overlap_ns = total_length_ns(intersect_intervals(copy_union, compute_union));
        o.exposed_copy_ns = o.copy_ns - o.overlap_ns;
        o.overlapped_copy_fraction =
            o.copy_ns > 0 ? static_cast<double>(o.overlap_ns) / static_cast<double>(o.copy_ns)
                          : 0.0;
        result.push_back(o);
    }
    return result;
}

}  // namespace trainscope::profiler
