#include "profiler/analysis/DeviceWorkAccumulator.hpp"

#include <algorithm>

namespace trainscope::profiler {

namespace {

void append(std::vector<Interval>& to, const Activity& a) {
    if (a.end_ns <= a.start_ns)
        return;  // merge_intervals drops it too
    if (!to.empty() && a.start_ns >= to.back().begin_ns && a.start_ns <= to.back().end_ns) {
        to.back().end_ns = std::max(to.back().end_ns, a.end_ns);
        return;
    }
    to.push_back({a.start_ns, a.end_ns});
}

}  // namespace

DeviceWorkAccumulator::DeviceWorkAccumulator(std::span<const Lane> lanes, bool host_ops_as_kernels)
    : lanes_(lanes), host_ops_as_kernels_(host_ops_as_kernels) {}

DeviceWorkAccumulator DeviceWorkAccumulator::of(const Trace& trace, bool host_ops_as_kernels) {
    DeviceWorkAccumulator work(trace.lanes, host_ops_as_kernels);
    for (const Activity& a : trace.activities)
        work.add(a);
    return work;
}

DeviceWorkAccumulator::Work& DeviceWorkAccumulator::work_of(DeviceKey key) {
    if (last_work_ == nullptr || key != last_key_) {
        last_key_ = key;
        last_work_ = &devices_[key];  // map nodes never move
    }
    return *last_work_;
}

void DeviceWorkAccumulator::add(const Activity& a) {
    switch (a.kind) {
        case ActivityKind::Kernel: {
            Work& work = work_of(work_device(lanes_, a));
            append(work.kernels, a);
            ++work.kernel_count;
            break;
        }
        case ActivityKind::Memcpy: {
            Work& work = work_of(work_device(lanes_, a));
            append(work.copies, a);
            ++work.copy_count;
            break;
        }
        case ActivityKind::Memset: {
            Work& work = work_of(work_device(lanes_, a));
            append(work.sets, a);
            ++work.set_count;
            break;
        }
        case ActivityKind::HostOp:
            // As host_ops_as_device_work makes them: on no device but their lane's.
            if (host_ops_as_kernels_) {
                const Lane& lane = lanes_[a.lane];
                Work& work = work_of({lane.rank, lane.device});
                append(work.kernels, a);
                ++work.kernel_count;
            }
            break;
        default:
            break;
    }
}

void DeviceWorkAccumulator::shift_earlier(std::int64_t ns) {
    for (auto& [key, work] : devices_) {
        for (auto* intervals : {&work.kernels, &work.copies, &work.sets}) {
            for (Interval& i : *intervals) {
                i.begin_ns -= ns;
                i.end_ns -= ns;
            }
        }
    }
}

}  // namespace trainscope::profiler
