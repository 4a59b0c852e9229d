#include "profiler/trace/TraceMerge.hpp"

#include <algorithm>

#include "profiler/trace/LaneRegistry.hpp"
#include "profiler/trace/TraceNesting.hpp"

namespace trainscope::profiler {

void merge_trace_into(Trace& into, const Trace& from) {
    const std::int64_t shift_ns = from.base_ns - into.base_ns;
    const bool into_was_empty =
        into.activities.empty() && into.capture_end_ns == into.capture_begin_ns;
    LaneRegistry lanes(into);
    std::vector<LaneId> lane_map(from.lanes.size());
    for (std::size_t i = 0; i < from.lanes.size(); ++i) {
        const Lane& l = from.lanes[i];
        lane_map[i] = lanes.find_or_copy(l);
    }
    into.activities.reserve(into.activities.size() + from.activities.size());
    for (const Activity& a : from.activities) {
        Activity copy = a;
        copy.start_ns += shift_ns;
        copy.end_ns += shift_ns;
        copy.lane = lane_map.at(a.lane);
        copy.name = into.strings.intern(from.strings.at(a.name));
        into.activities.push_back(copy);
    }
    into.collectives.reserve(into.collectives.size() + from.collectives.size());
    for (const CollectiveCall& c : from.collectives) {
        CollectiveCall copy = c;
        copy.start_ns += shift_ns;
        copy.end_ns += shift_ns;
        copy.lane = lane_map.at(c.lane);
        copy.group = into.strings.intern(from.strings.at(c.group));
        copy.dtype = into.strings.intern(from.strings.at(c.dtype));
        into.collectives.push_back(copy);
    }
    into.world_size = std::max(into.world_size, from.world_size);
    for (const CounterSeries& series : from.counters) {
        CounterSeries copy = series;
        for (CounterSample& s : copy.samples)
            s.t_ns += shift_ns;
        into.counters.push_back(std::move(copy));
    }
    const std::int64_t begin = from.capture_begin_ns + shift_ns;
    const std::int64_t end = from.capture_end_ns + shift_ns;
    if (into_was_empty) {
        into.capture_begin_ns = begin;
        into.capture_end_ns = end;
    } else if (end > begin) {
        into.capture_begin_ns = std::min(into.capture_begin_ns, begin);
        into.capture_end_ns = std::max(into.capture_end_ns, end);
    }
    into.dropped_records += from.dropped_records;
    for (const auto& [key, value] : from.metadata)
        into.metadata.emplace(key, value);
    // A shared lane now holds both sources' intervals: nest them together.
    assign_nesting_depths(into);
}

}  // namespace trainscope::profiler
