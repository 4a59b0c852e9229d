#include "profiler/analysis/ComputeThreadBusy.hpp"

#include <map>
#include <utility>

namespace trainscope::profiler {

ComputeThreadBusy ComputeThreadBusy::from_host_ops(const Trace& trace) {
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<Interval>> by_thread;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::HostOp)
            continue;
        const Lane& lane = trace.lanes.at(a.lane);
        by_thread[{lane.process, lane.stream_or_thread}].push_back({a.start_ns, a.end_ns});
    }
    std::vector<std::vector<Interval>> threads;
    threads.reserve(by_thread.size());
    for (auto& [thread, intervals] : by_thread)
        threads.push_back(std::move(intervals));
    ComputeThreadBusy busy;
    busy.timeline_ = BusyTimeline(std::move(threads));
    return busy;
}

}  // namespace trainscope::profiler
