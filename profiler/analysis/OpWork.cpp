#include "profiler/analysis/OpWork.hpp"

#include <algorithm>
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

std::vector<OpTime> op_device_times(const Trace& trace, const TimeWindow& window) {
    const auto picked = [&window](const Activity& a) {
        return carries_op_work(a) && window.contains(a.start_ns);
    };
    if (is_host_op_trace(trace)) {
        std::vector<std::size_t> ops;
        for (std::size_t i = 0; i < trace.activities.size(); ++i) {
            if (picked(trace.activities[i]))
                ops.push_back(i);
        }
        return host_op_self_times(trace, ops);
    }
    std::vector<OpTime> times;
    for (const NvtxRangeGpuTime& r :
         project_host_ranges_to_gpu(trace, picked, Attribution::innermost))
        times.push_back({r.range_index, r.kernel_ns + r.copy_ns});
    return times;
}

std::vector<OpWorkTotals> sorted_totals(const Trace& trace,
                                        std::map<StringId, OpWorkTotals>& by_name) {
    std::vector<OpWorkTotals> totals;
    totals.reserve(by_name.size());
    for (auto& [id, t] : by_name) {
        t.name = trace.strings.at(id);
        totals.push_back(std::move(t));
    }
    std::sort(totals.begin(), totals.end(), [](const OpWorkTotals& x, const OpWorkTotals& y) {
        return x.device_ns != y.device_ns ? x.device_ns > y.device_ns : x.name < y.name;
    });
    return totals;
}

void add(OpWorkTotals& t, const Activity& op, std::int64_t device_ns) {
    ++t.count;
    t.flops += op.flops;
    t.bytes += static_cast<double>(op.bytes);
    t.device_ns += device_ns;
}

}  // namespace

std::vector<OpWorkTotals> total_op_work_by_name(const Trace& trace, const TimeWindow& window) {
    std::map<StringId, OpWorkTotals> by_name;
    for (const OpTime& t : op_device_times(trace, window)) {
        const Activity& op = trace.activities[t.index];
        add(by_name[op.name], op, t.device_ns);
    }
    return sorted_totals(trace, by_name);
}

std::map<std::int32_t, std::vector<OpWorkTotals>> total_op_work_by_rank(const Trace& trace,
                                                                        const TimeWindow& window) {
    std::map<std::int32_t, std::map<StringId, OpWorkTotals>> by_rank;
    for (const OpTime& t : op_device_times(trace, window)) {
        const Activity& op = trace.activities[t.index];
        add(by_rank[trace.lanes.at(op.lane).rank][op.name], op, t.device_ns);
    }
    std::map<std::int32_t, std::vector<OpWorkTotals>> totals;
    for (auto& [rank, by_name] : by_rank)
        totals[rank] = sorted_totals(trace, by_name);
    return totals;
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
