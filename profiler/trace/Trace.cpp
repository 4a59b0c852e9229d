#include "profiler/trace/Trace.hpp"

#include <algorithm>

#include "profiler/trace/TraceOrder.hpp"

namespace trainscope::profiler {

LaneId Trace::add_lane(Lane lane) {
    lanes.push_back(std::move(lane));
    return static_cast<LaneId>(lanes.size() - 1);
}

void Trace::sort() {
    std::stable_sort(activities.begin(), activities.end(), in_trace_order<Activity>);
}

}  // namespace trainscope::profiler
