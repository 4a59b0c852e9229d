#include "profiler/analysis/RankWork.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include "profiler/analysis/ControlCollectives.hpp"
#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"

namespace trainscope::profiler {

std::vector<std::int32_t> ranks_of(const Trace& trace) {
    std::set<std::int32_t> ranks;
    for (const Lane& lane : trace.lanes)
        ranks.insert(lane.rank);
    if (ranks.empty())
        ranks.insert(0);
    return {ranks.begin(), ranks.end()};
}

RankSlice::RankSlice(const Trace& trace, std::int32_t rank)
    : trace_(trace), rank_(rank), lane_map_(trace.lanes.size(), kNone) {
    LaneId next = 0;
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        if (trace.lanes[i].rank == rank)
            lane_map_[i] = next++;  // as header() adds them
    }
}

Trace RankSlice::header() const {
    Trace out;
    out.base_ns = trace_.base_ns;
    out.capture_begin_ns = trace_.capture_begin_ns;
    out.capture_end_ns = trace_.capture_end_ns;
    out.strings = trace_.strings;
    out.metadata = trace_.metadata;
    out.source_clock_offset_ns = trace_.source_clock_offset_ns;
    for (const Lane& lane : trace_.lanes) {
        if (lane.rank == rank_)
            out.add_lane(lane);
    }
    for (const CollectiveCall& c : trace_.collectives) {
        if (c.rank == rank_ && c.lane < lane_map_.size() && lane_map_[c.lane] != kNone) {
            CollectiveCall copy = c;
            copy.lane = lane_map_[c.lane];
            out.collectives.push_back(copy);
        }
    }
    return out;
}

Trace trace_of_rank(const Trace& trace, std::int32_t rank) {
    const RankSlice slice(trace, rank);
    Trace out = slice.header();
    for (const Activity& a : trace.activities) {
        Activity copy = a;
        if (slice.take(copy))
            out.activities.push_back(copy);
    }
    return out;
}

namespace {

// Appends `span` to a list of intervals in arrival order, joined to the last one when it
// starts inside it: the union is kept and merge_intervals finishes it.
void append(std::vector<Interval>& to, Interval span) {
    if (!to.empty() && span.begin_ns >= to.back().begin_ns && span.begin_ns <= to.back().end_ns) {
        to.back().end_ns = std::max(to.back().end_ns, span.end_ns);
        return;
    }
    to.push_back(span);
}

}  // namespace

RankWorkAccumulator::RankWorkAccumulator(const Trace& header, bool host_ops,
                                         const TimeWindow& window)
    : header_(header), host_ops_(host_ops), window_(window) {
    for (const std::int32_t rank : ranks_of(header))
        raw_[rank];
}

void RankWorkAccumulator::add(const Activity& a) {
    const bool collective = a.kind == ActivityKind::Collective;
    if (!collective && !is_device_work(a.kind, host_ops_))
        return;
    // Between steps, waiting on the other ranks: neither work nor the step's
    // communication (ControlCollectives.hpp).
    if (collective && is_control_collective(header_, a))
        return;
    if (a.lane >= header_.lanes.size())
        return;
    const std::int64_t begin = std::max(a.start_ns, window_.begin_ns);
    const std::int64_t end = std::min(a.end_ns, window_.end_ns);
    if (end <= begin)
        return;
    Raw& r = raw_[header_.lanes[a.lane].rank];
    const Interval span{begin, end};
    append(r.all, span);
    if (a.kind == ActivityKind::Memcpy || a.kind == ActivityKind::Memset)
        return;
    const bool comm = collective || comm_names_.is_communication(a.name, header_.strings);
    append(comm ? r.communication : r.compute, span);
}

std::map<std::int32_t, RankWork> RankWorkAccumulator::finish() && {
    std::map<std::int32_t, RankWork> out;
    for (auto& [rank, r] : raw_) {
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

std::map<std::int32_t, RankWork> work_by_rank(const Trace& trace, const TimeWindow& window) {
    RankWorkAccumulator work(trace, is_host_op_trace(trace), window);
    for (const Activity& a : trace.activities)
        work.add(a);
    return std::move(work).finish();
}

}  // namespace trainscope::profiler
