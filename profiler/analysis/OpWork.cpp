#include "profiler/analysis/OpWork.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/NvtxProjectionAnalysis.hpp"
#include "profiler/analysis/OpSelfTime.hpp"

namespace trainscope::profiler {

bool carries_op_work(const Activity& a) {
    return a.kind == ActivityKind::HostOp && (a.flops > 0.0 || a.bytes > 0);
}

bool may_carry_op_work(const Trace& header) {
    return header.metadata.contains(kHostTracerMetadataKey);
}

namespace {

struct OpTime {
    std::size_t index = 0;  // into trace.activities
    std::int64_t device_ns = 0;
};

// A host-op trace's ops are the device's work themselves: each op's own time is its self
// time among the picked ops (op_self_times, which also splits ops that overhang their
// parent by a rounded microsecond). In lane and start order, the order the totals are
// summed in.
std::vector<OpTime> host_op_self_times(const Trace& trace, const std::vector<std::size_t>& picked) {
    std::vector<std::size_t> order = picked;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        const Activity& a = trace.activities[x];
        const Activity& b = trace.activities[y];
        return std::tie(a.lane, a.start_ns, b.end_ns) < std::tie(b.lane, b.start_ns, a.end_ns);
    });
    std::vector<bool> is_op(trace.activities.size());
    for (const std::size_t i : picked)
        is_op[i] = true;
    const std::vector<std::int64_t> self_ns = op_self_times(trace, is_op);
    std::vector<OpTime> times;
    times.reserve(order.size());
    for (const std::size_t i : order)
        times.push_back({i, self_ns[i]});
    return times;
}

std::vector<OpWorkTotals> sorted_totals(const StringTable& strings,
                                        std::map<StringId, OpWorkTotals>& by_name) {
    std::vector<OpWorkTotals> totals;
    totals.reserve(by_name.size());
    for (auto& [id, t] : by_name) {
        t.name = strings.at(id);
        totals.push_back(std::move(t));
    }
    std::sort(totals.begin(), totals.end(), [](const OpWorkTotals& x, const OpWorkTotals& y) {
        return x.device_ns != y.device_ns ? x.device_ns > y.device_ns : x.name < y.name;
    });
    return totals;
}

void add_op(OpWorkTotals& t, float flops, std::int64_t bytes, std::int64_t device_ns) {
    ++t.count;
    t.flops += flops;
    t.bytes += static_cast<double>(bytes);
    t.device_ns += device_ns;
}

OpWorkAccumulator::Totals host_op_totals(const Trace& trace, const TimeWindow& window) {
    std::vector<std::size_t> ops;
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& a = trace.activities[i];
        if (carries_op_work(a) && window.contains(a.start_ns))
            ops.push_back(i);
    }
    std::map<StringId, OpWorkTotals> by_name;
    std::map<std::int32_t, std::map<StringId, OpWorkTotals>> by_rank;
    for (const OpTime& t : host_op_self_times(trace, ops)) {
        const Activity& op = trace.activities[t.index];
        add_op(by_name[op.name], op.flops, op.bytes, t.device_ns);
        add_op(by_rank[trace.lanes.at(op.lane).rank][op.name], op.flops, op.bytes, t.device_ns);
    }
    OpWorkAccumulator::Totals totals;
    totals.by_name = sorted_totals(trace.strings, by_name);
    for (auto& [rank, names] : by_rank)
        totals.by_rank[rank] = sorted_totals(trace.strings, names);
    return totals;
}

OpWorkAccumulator::Totals op_totals(const Trace& trace, const TimeWindow& window) {
    if (is_host_op_trace(trace))
        return host_op_totals(trace, window);
    // Nothing to project (a CUDA run's op ranges when it recorded none): spare collecting
    // and sorting the launches.
    if (std::none_of(trace.activities.begin(), trace.activities.end(), [&](const Activity& a) {
            return carries_op_work(a) && window.contains(a.start_ns);
        }))
        return {};
    OpWorkAccumulator ops(trace.lanes, window);
    for (std::size_t i = 0; i < trace.activities.size(); ++i)
        ops.add(trace.activities[i], i);
    return std::move(ops).finish(trace.strings);
}

}  // namespace

OpWorkAccumulator::OpWorkAccumulator(std::span<const Lane> lanes, const TimeWindow& window)
    : lanes_(lanes),
      window_(window),
      projection_(
          lanes,
          [window](const Activity& a) { return carries_op_work(a) && window.contains(a.start_ns); },
          false) {}

void OpWorkAccumulator::add(const Activity& a, std::size_t index) {
    projection_.add(a, index);
    if (carries_op_work(a) && window_.contains(a.start_ns))
        ops_.push_back({a.name, lanes_[a.lane].rank, a.flops, a.bytes});
}

OpWorkAccumulator::Totals OpWorkAccumulator::finish(const StringTable& strings) && {
    const std::vector<NvtxRangeGpuTime> times =
        std::move(projection_).finish(strings, Attribution::innermost);
    std::map<StringId, OpWorkTotals> by_name;
    std::map<std::int32_t, std::map<StringId, OpWorkTotals>> by_rank;
    // The projection's ranges are the picked ops, in the same (trace) order: one picking
    // rule for both, so a difference is a fault here, not in the trace.
    if (times.size() != ops_.size()) {
        throw std::logic_error("OpWorkAccumulator: " + std::to_string(times.size()) +
                               " projected ranges for " + std::to_string(ops_.size()) + " ops");
    }
    for (std::size_t i = 0; i < times.size(); ++i) {
        const Op& op = ops_[i];
        const std::int64_t device_ns = times[i].kernel_ns + times[i].copy_ns;
        add_op(by_name[op.name], op.flops, op.bytes, device_ns);
        add_op(by_rank[op.rank][op.name], op.flops, op.bytes, device_ns);
    }
    Totals totals;
    totals.by_name = sorted_totals(strings, by_name);
    for (auto& [rank, names] : by_rank)
        totals.by_rank[rank] = sorted_totals(strings, names);
    return totals;
}

std::vector<OpWorkTotals> total_op_work_by_name(const Trace& trace, const TimeWindow& window) {
    return op_totals(trace, window).by_name;
}

std::map<std::int32_t, std::vector<OpWorkTotals>> total_op_work_by_rank(const Trace& trace,
                                                                        const TimeWindow& window) {
    return op_totals(trace, window).by_rank;
}

std::vector<std::size_t> op_instances(const Trace& trace, const std::string& name) {
    std::vector<std::size_t> found;
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& a = trace.activities[i];
        if (carries_op_work(a) && trace.strings.at(a.name) == name)
            found.push_back(i);
    }
    return found;
}

}  // namespace trainscope::profiler
