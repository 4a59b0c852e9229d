#include "profiler/analysis/ControlCollectives.hpp"

#include "common/CollectiveMessage.hpp"

namespace trainscope::profiler {

bool is_control_collective(const Trace& trace, const CollectiveCall& call) {
    return call.group != kNoString && call.group < trace.strings.size() &&
           trace.strings.at(call.group) == kControlCollectiveGroup;
}

bool is_control_collective(const Trace& trace, const Activity& activity) {
    return activity.kind == ActivityKind::Collective && activity.name < trace.strings.size() &&
           is_control_collective_activity_name(trace.strings.at(activity.name));
}

}  // namespace trainscope::profiler
