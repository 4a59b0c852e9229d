#include "profiler/trace/Trace.hpp"

#include <algorithm>

namespace trainscope::profiler {

LaneId Trace::add_lane(Lane lane) {
    lanes.push_back(std::move(lane));
    return static_cast<LaneId>(lanes.size() - 1);
}

void Trace::sort() {
    std::stable_sort(activities.begin(), activities.end(),
                     [](const Activity& a, const Activity& b) {
                         if (a.lane != b.lane)
                             return a.lane < b.lane;
                         if (a.start_ns != b.start_ns)
                             return a.start_ns < b.start_ns;
                         return a.end_ns > b.end_ns;
                     });
}

}  // namespace trainscope::profiler
