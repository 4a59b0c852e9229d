#include "profiler/trace/TraceNesting.hpp"

#include "profiler/trace/NestingStack.hpp"

namespace trainscope::profiler {

void assign_nesting_depths(Trace& trace) {
    trace.sort();
    NestingStack stack;
    LaneId current_lane = 0;
    bool first = true;
    for (Activity& a : trace.activities) {
        if (first || a.lane != current_lane) {
            stack.clear();
            current_lane = a.lane;
            first = false;
        }
        if (trace.lanes.at(a.lane).kind == LaneKind::GpuStream) {
            a.depth = 0;
            continue;
        }
        stack.close_before(a);
        a.depth = stack.depth();
        stack.push(a);
    }
}

}  // namespace trainscope::profiler
