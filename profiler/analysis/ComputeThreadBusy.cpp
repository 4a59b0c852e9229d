#include "profiler/analysis/ComputeThreadBusy.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "profiler/analysis/IntervalSet.hpp"

namespace trainscope::profiler {

ComputeThreadBusy ComputeThreadBusy::from_host_ops(const Trace& trace) {
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<Interval>> by_thread;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::HostOp)
            continue;
        const Lane& lane = trace.lanes.at(a.lane);
        by_thread[{lane.process, lane.stream_or_thread}].push_back({a.start_ns, a.end_ns});
    }
    ComputeThreadBusy busy;
    busy.thread_count_ = static_cast<int>(by_thread.size());
    // +1 where a thread becomes busy, -1 where it becomes idle; one thread's merged
    // intervals never overlap, so the running level counts busy threads.
    std::vector<std::pair<std::int64_t, int>> edges;
    for (auto& [thread, intervals] : by_thread) {
        for (const Interval& iv : merge_intervals(std::move(intervals))) {
            edges.emplace_back(iv.begin_ns, +1);
            edges.emplace_back(iv.end_ns, -1);
        }
    }
    std::sort(edges.begin(), edges.end());
    int level = 0;
    std::int64_t total = 0;
    for (const auto& [t, delta] : edges) {
        if (!busy.times_.empty()) {
            total += static_cast<std::int64_t>(busy.level_.back()) * (t - busy.times_.back());
            if (busy.times_.back() == t) {  // several edges at one time: one change point
                level += delta;
                busy.level_.back() = level;
                continue;
            }
        }
        level += delta;
        busy.times_.push_back(t);
        busy.level_.push_back(level);
        busy.before_.push_back(total);
    }
    return busy;
}

double ComputeThreadBusy::busy_before(double t_ns) const {
    // The last change point at or before t: everything up to it is in before_, the
    // rest of the way to t runs at its level.
    const auto it =
        std::upper_bound(times_.begin(), times_.end(), t_ns,
                         [](double t, std::int64_t c) { return t < static_cast<double>(c); });
    if (it == times_.begin())
        return 0.0;
    const auto i = static_cast<std::size_t>(it - times_.begin()) - 1;
    if (level_[i] == 0)  // also keeps an infinite t from making 0 × inf
        return static_cast<double>(before_[i]);
    return static_cast<double>(before_[i]) +
           static_cast<double>(level_[i]) * (t_ns - static_cast<double>(times_[i]));
}

double ComputeThreadBusy::busy_thread_ns(double t0_ns, double t1_ns) const {
    return t1_ns <= t0_ns ? 0.0 : busy_before(t1_ns) - busy_before(t0_ns);
}

double ComputeThreadBusy::busy_share(double t0_ns, double t1_ns) const {
    if (thread_count_ == 0 || t1_ns <= t0_ns)
        return 0.0;
    return std::clamp(busy_thread_ns(t0_ns, t1_ns) / (thread_count_ * (t1_ns - t0_ns)), 0.0, 1.0);
}

}  // namespace trainscope::profiler
