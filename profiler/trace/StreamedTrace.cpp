#include "profiler/trace/StreamedTrace.hpp"

#include <stdexcept>
#include <string>

namespace trainscope::profiler {

namespace {

using Joins = std::function<void(const Activity&, std::span<const NestingStack::Open>)>;

// The nesting of assign_nesting_depths (streams are flat), with the source's shift.
void pass(ActivityStream& activities, std::int64_t shift_ns, std::span<const Lane> lanes,
          const Joins& joins, const std::function<void(const Activity&)>& visit) {
    NestingStack stack;
    LaneId lane = 0;
    bool first = true;
    Activity a;
    while (activities.next(a)) {
        a.start_ns -= shift_ns;
        a.end_ns -= shift_ns;
        if (first || a.lane != lane) {
            stack.clear();
            lane = a.lane;
            first = false;
        }
        if (a.lane >= lanes.size())
            throw std::out_of_range("an activity of lane " + std::to_string(a.lane) +
                                    ", beyond the trace's lanes");
        if (lanes[a.lane].kind == LaneKind::GpuStream) {
            a.depth = 0;
            if (joins)
                joins(a, {});
        } else {
            stack.close_before(a);
            a.depth = stack.depth();
            if (joins)
                joins(a, stack.open());
            stack.push(a);
        }
        visit(a);
    }
}

void pass(StreamedTrace& trace, const std::function<void(const Activity&)>& visit, bool joins) {
    if (!trace.activities)
        return;
    Joins with_header;
    if (joins) {
        with_header = [&trace](const Activity& a, std::span<const NestingStack::Open> open) {
            trace.on_activity(a, open, trace.header);
        };
    }
    pass(*trace.activities, trace.shift_ns, trace.header.lanes, with_header, visit);
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

SecondPass::SecondPass(const StreamedTrace& trace)
    : reader_(trace.activities ? trace.activities->another_reader() : nullptr),
      shift_ns_(trace.shift_ns),
      lanes_(trace.header.lanes) {}

void SecondPass::preview(const std::function<void(const Activity&)>& visit) {
    pass(*reader_, shift_ns_, lanes_, {}, visit);
    reader_->rewind();
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
