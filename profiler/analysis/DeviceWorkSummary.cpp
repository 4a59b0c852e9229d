#include "profiler/analysis/DeviceWorkSummary.hpp"

#include "profiler/analysis/DeviceSweep.hpp"

namespace trainscope::profiler {

DeviceWorkSummary::DeviceWorkSummary(std::span<const Lane> lanes, bool host_ops_as_kernels,
                                     std::size_t run_capacity)
    : lanes_(lanes), host_ops_as_kernels_(host_ops_as_kernels), sorter_(run_capacity) {}

void DeviceWorkSummary::add(const Activity& a) {
    switch (a.kind) {
        case ActivityKind::Kernel:
            add_work(work_device(lanes_, a), a, true);
            break;
        case ActivityKind::Memcpy:
            add_work(work_device(lanes_, a), a, false);
            break;
        case ActivityKind::HostOp:
            if (host_ops_as_kernels_) {
                const Lane& lane = lanes_[a.lane];
                add_work({lane.rank, lane.device}, a, true);
            }
            break;
        default:
            break;  // memsets count in neither figure
    }
}

void DeviceWorkSummary::add_work(DeviceKey key, const Activity& a, bool kernel) {
    const auto [it, added] = ids_.try_emplace(key, static_cast<std::uint32_t>(totals_.size()));
    if (added) {
        DeviceWorkTotals fresh;
        fresh.device = key;
        totals_.push_back(fresh);
    }
    DeviceWorkTotals& totals = totals_[it->second];
    ++(kernel ? totals.kernel_count : totals.copy_count);
    if (a.end_ns <= a.start_ns)
        return;  // empty: counted, but in no union (merge_intervals drops it too)
    Activity record;
    record.kind = kernel ? ActivityKind::Kernel : ActivityKind::Memcpy;
    record.lane = it->second;
    record.start_ns = a.start_ns;
    record.end_ns = a.end_ns;
    sorter_.add(record);
}

std::vector<DeviceWorkTotals> DeviceWorkSummary::finish() && {
    SortedActivities sorted = std::move(sorter_).finish();
    std::vector<DeviceSweep> sweeps(totals_.size());
    Activity r;
    while (sorted.next(r))
        sweeps[r.lane].add({r.start_ns, r.end_ns}, r.kind == ActivityKind::Kernel);
    std::vector<DeviceWorkTotals> out;
    out.reserve(totals_.size());
    for (const auto& [key, id] : ids_) {  // by rank, then device
        DeviceWorkTotals totals = totals_[id];
        totals.figures = std::move(sweeps[id]).finish();
        out.push_back(totals);
    }
    return out;
}

}  // namespace trainscope::profiler
