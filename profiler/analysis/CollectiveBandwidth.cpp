#include "profiler/analysis/CollectiveBandwidth.hpp"

#include <map>
#include <tuple>

#include "profiler/analysis/ControlCollectives.hpp"

namespace trainscope::profiler {

std::vector<CollectiveBandwidthRow> analyze_collective_bandwidth(const Trace& trace,
                                                                 const TimeWindow& window) {
    std::map<std::tuple<CollectiveKind, std::int64_t, std::int32_t>, CollectiveBandwidthRow> rows;
    for (const CollectiveCall& c : trace.collectives) {
        if (!window.contains(c.start_ns) || is_control_collective(trace, c))
            continue;
        const std::int32_t ranks = c.group_size > 0 ? c.group_size : trace.world_size;
        CollectiveBandwidthRow& row = rows[{c.kind, c.bytes, ranks}];
        row.kind = c.kind;
        row.bytes = c.bytes;
        row.ranks = ranks;
        ++row.calls;
        row.total_ns += c.duration_ns();
    }
    std::vector<CollectiveBandwidthRow> out;
    for (auto& [key, row] : rows) {
        row.mean_us = static_cast<double>(row.total_ns) * 1e-3 / static_cast<double>(row.calls);
        if (row.bytes > 0 && row.total_ns > 0) {
            // bytes per µs / 1e3 = GB/s
            row.algbw_gbps = static_cast<double>(row.bytes) / row.mean_us * 1e-3;
            row.busbw_gbps = row.algbw_gbps * bus_bandwidth_factor(row.kind, row.ranks);
        }
        out.push_back(row);
    }
    return out;
}

}  // namespace trainscope::profiler
