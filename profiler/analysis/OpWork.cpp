#include "profiler/analysis/OpWork.hpp"

#include <algorithm>
#include <map>

#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/NvtxProjectionAnalysis.hpp"

namespace trainscope::profiler {

namespace {

bool carries_work(const Activity& a) {
    return a.kind == ActivityKind::HostOp && (a.flops > 0.0 || a.bytes > 0);
}

}  // namespace

std::vector<OpWorkTotals> total_op_work_by_name(const Trace& trace, const TimeWindow& window) {
    std::map<StringId, OpWorkTotals> by_name;
    const auto add = [&](const Activity& op, std::int64_t device_ns) {
        OpWorkTotals& t = by_name[op.name];
        ++t.count;
        t.flops += op.flops;
        t.bytes += static_cast<double>(op.bytes);
        t.device_ns += device_ns;
    };
    const auto picked = [&window](const Activity& a) {
        return carries_work(a) && window.contains(a.start_ns);
    };
    if (is_host_op_trace(trace)) {
        for (const Activity& a : trace.activities) {
            if (picked(a))
                add(a, a.duration_ns());
        }
    } else {
        for (const NvtxRangeGpuTime& r : project_host_ranges_to_gpu(trace, picked)) {
            add(trace.activities[r.range_index], r.kernel_ns + r.copy_ns);
        }
    }
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

std::vector<std::size_t> op_instances(const Trace& trace, const std::string& name) {
    std::vector<std::size_t> found;
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& a = trace.activities[i];
        if (carries_work(a) && trace.strings.at(a.name) == name)
            found.push_back(i);
    }
    return found;
}

}  // namespace trainscope::profiler
