#include "profiler/trace/TraceNesting.hpp"

#include <vector>

namespace trainscope::profiler {

void assign_nesting_depths(Trace& trace) {
    trace.sort();
    std::vector<std::int64_t> open_ends;  // end times of the enclosing intervals
    LaneId current_lane = 0;
    bool first = true;
    for (Activity& a : trace.activities) {
        if (first || a.lane != current_lane) {
            open_ends.clear();
            current_lane = a.lane;
            first = false;
        }
        if (trace.lanes.at(a.lane).kind == LaneKind::GpuStream) {
            a.depth = 0;
            continue;
        }
        while (!open_ends.empty() &&
               (a.start_ns >= open_ends.back() || a.end_ns > open_ends.back())) {
            open_ends.pop_back();
        }
        a.depth = static_cast<std::uint16_t>(open_ends.size());
        open_ends.push_back(a.end_ns);
    }
}

}  // namespace trainscope::profiler
