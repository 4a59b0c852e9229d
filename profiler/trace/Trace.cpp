#include "profiler/trace/Trace.hpp"

#include <algorithm>

namespace trainscope::profiler {

LaneId Trace::add_lane(Lane lane) {
    lanes.push_back(std::move(lane));
    return static_cast<LaneId>(lanes.size() - 1);
}

LaneId Trace::lane_for(LaneKind kind, std::int32_t device, std::int64_t stream_or_thread,
                       std::int64_t process, const std::string& name) {
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const Lane& l = lanes[i];
        if (l.kind == kind && l.device == device && l.stream_or_thread == stream_or_thread &&
            l.process == process) {
            return static_cast<LaneId>(i);
        }
    }
    return add_lane(Lane{kind, device, stream_or_thread, process, name});
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
