#include "profiler/trace/StreamedTrace.hpp"

namespace trainscope::profiler {

namespace {

void pass(StreamedTrace& trace, const std::function<void(const Activity&)>& visit, bool joins) {
    NestingStack stack;
    LaneId lane = 0;
    bool first = true;
    if (!trace.activities)
        return;
    Activity a;
    while (trace.activities->next(a)) {
        a.start_ns -= trace.shift_ns;
        a.end_ns -= trace.shift_ns;
        if (first || a.lane != lane) {
            stack.clear();
            lane = a.lane;
            first = false;
        }
        // The nesting of assign_nesting_depths: streams are flat.
        if (trace.header.lanes.at(a.lane).kind == LaneKind::GpuStream) {
            a.depth = 0;
            if (joins)
                trace.on_activity(a, {}, trace.header);
        } else {
            stack.close_before(a);
            a.depth = stack.depth();
            if (joins)
                trace.on_activity(a, stack.open(), trace.header);
            stack.push(a);
        }
        visit(a);
    }
}

}  // namespace

void stream_activities(StreamedTrace& trace, const std::function<void(const Activity&)>& visit) {
    pass(trace, visit, static_cast<bool>(trace.on_activity));
    if (trace.on_end)
        trace.on_end(trace.header);
}

void preview_activities(StreamedTrace& trace, const std::function<void(const Activity&)>& visit) {
    pass(trace, visit, false);
    if (trace.activities)
        trace.activities->rewind();
}

void complete_header(StreamedTrace& trace) {
    if (!trace.on_activity && !trace.on_end)
        return;
    stream_activities(trace, [](const Activity&) {});
    if (trace.activities)
        trace.activities->rewind();
    trace.on_activity = nullptr;
    trace.on_end = nullptr;
}

Trace materialize(StreamedTrace&& trace) {
    std::vector<Activity> activities;
    activities.reserve(static_cast<std::size_t>(trace.activity_count));
    stream_activities(trace, [&activities](const Activity& a) { activities.push_back(a); });
    Trace whole = std::move(trace.header);
    whole.activities = std::move(activities);
    return whole;
}

}  // namespace trainscope::profiler
