#include "profiler/analysis/DeviceWorkSummary.hpp"

#include <algorithm>

#include "profiler/analysis/IntervalSet.hpp"

namespace trainscope::profiler {

namespace {

// The length of a union of intervals that arrive by start: only the open one is held.
class UnionLength {
  public:
    void add(std::int64_t begin_ns, std::int64_t end_ns) {
        if (const auto done = open_.add({begin_ns, end_ns}))
            total_ += done->length_ns();
    }
    std::int64_t finish() {
        if (const auto done = open_.finish())
            total_ += done->length_ns();
        return total_;
    }

  private:
    OpenInterval open_;
    std::int64_t total_ = 0;
};

// One device's unions while its records pass by start.
struct DeviceSweep {
    UnionLength kernels;
    UnionLength copies;
    UnionLength joint;
    bool any_kernel = false;
};

}  // namespace

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
    if (added)
        totals_.push_back({key});
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
    while (sorted.next(r)) {
        DeviceWorkTotals& totals = totals_[r.lane];
        DeviceSweep& sweep = sweeps[r.lane];
        if (r.kind == ActivityKind::Kernel) {
            if (!sweep.any_kernel) {
                totals.span_begin_ns = r.start_ns;  // the first by start
                totals.span_end_ns = r.end_ns;
                sweep.any_kernel = true;
            }
            totals.span_end_ns = std::max(totals.span_end_ns, r.end_ns);
            sweep.kernels.add(r.start_ns, r.end_ns);
        } else {
            sweep.copies.add(r.start_ns, r.end_ns);
        }
        sweep.joint.add(r.start_ns, r.end_ns);
    }
    std::vector<DeviceWorkTotals> out;
    out.reserve(totals_.size());
    for (const auto& [key, id] : ids_) {  // by rank, then device
        DeviceWorkTotals totals = totals_[id];
        DeviceSweep& sweep = sweeps[id];
        totals.kernel_ns = sweep.kernels.finish();
        totals.copy_ns = sweep.copies.finish();
        totals.overlap_ns = totals.kernel_ns + totals.copy_ns - sweep.joint.finish();
        out.push_back(totals);
    }
    return out;
}

}  // namespace trainscope::profiler
