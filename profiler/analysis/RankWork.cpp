#include "profiler/analysis/RankWork.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include "profiler/analysis/ControlCollectives.hpp"
#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/KernelCategory.hpp"

namespace trainscope::profiler {

std::vector<std::int32_t> ranks_of(const Trace& trace) {
    std::set<std::int32_t> ranks;
    for (const Lane& lane : trace.lanes)
        ranks.insert(lane.rank);
    if (ranks.empty())
        ranks.insert(0);
    return {ranks.begin(), ranks.end()};
}

Trace trace_of_rank(const Trace& trace, std::int32_t rank) {
    Trace out;
    out.base_ns = trace.base_ns;
    out.capture_begin_ns = trace.capture_begin_ns;
    out.capture_end_ns = trace.capture_end_ns;
    out.strings = trace.strings;
    out.metadata = trace.metadata;
    out.source_clock_offset_ns = trace.source_clock_offset_ns;
    constexpr LaneId kNone = std::numeric_limits<LaneId>::max();
    std::vector<LaneId> lane_map(trace.lanes.size(), kNone);
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        if (trace.lanes[i].rank == rank)
            lane_map[i] = out.add_lane(trace.lanes[i]);
    }
    for (const Activity& a : trace.activities) {
        if (a.lane < lane_map.size() && lane_map[a.lane] != kNone) {
            Activity copy = a;
            copy.lane = lane_map[a.lane];
            out.activities.push_back(copy);
        }
    }
    for (const CollectiveCall& c : trace.collectives) {
        if (c.rank == rank && c.lane < lane_map.size() && lane_map[c.lane] != kNone) {
            CollectiveCall copy = c;
            copy.lane = lane_map[c.lane];
            out.collectives.push_back(copy);
        }
    }
    return out;
}

std::map<std::int32_t, RankWork> work_by_rank(const Trace& trace, const TimeWindow& window) {
    const bool host_ops = is_host_op_trace(trace);
    struct Raw {
        std::vector<Interval> all, compute, communication;
    };
    std::map<std::int32_t, Raw> raw;
    for (const std::int32_t rank : ranks_of(trace))
        raw[rank];
    // Names are interned: classify each once.
    std::vector<signed char> is_comm_name(trace.strings.size(), -1);
    for (const Activity& a : trace.activities) {
        const bool collective = a.kind == ActivityKind::Collective;
        if (!collective && !is_device_work(a.kind, host_ops))
            continue;
        // Between steps, waiting on the other ranks: neither work nor the step's
        // communication (ControlCollectives.hpp).
        if (collective && is_control_collective(trace, a))
            continue;
        if (a.lane >= trace.lanes.size())
            continue;
        const std::int64_t begin = std::max(a.start_ns, window.begin_ns);
        const std::int64_t end = std::min(a.end_ns, window.end_ns);
        if (end <= begin)
            continue;
        Raw& r = raw[trace.lanes[a.lane].rank];
        const Interval span{begin, end};
        r.all.push_back(span);
        if (a.kind == ActivityKind::Memcpy || a.kind == ActivityKind::Memset)
            continue;
        bool comm = collective;
        if (!comm && a.name < is_comm_name.size()) {
            signed char& known = is_comm_name[a.name];
            if (known < 0) {
                known = classify_kernel(trace.strings.at(a.name)) == KernelCategory::Communication
                            ? 1
                            : 0;
            }
            comm = known == 1;
        }
        (comm ? r.communication : r.compute).push_back(span);
    }
    std::map<std::int32_t, RankWork> out;
    for (auto& [rank, r] : raw) {
        RankWork w;
        w.all = merge_intervals(std::move(r.all));
        w.compute = merge_intervals(std::move(r.compute));
        w.communication = merge_intervals(std::move(r.communication));
        if (!w.all.empty()) {
            w.first_ns = w.all.front().begin_ns;
            w.last_ns = w.all.back().end_ns;
        }
        out.emplace(rank, std::move(w));
    }
    return out;
}

}  // namespace trainscope::profiler
