#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "profiler/trace/ActivityStream.hpp"
#include "profiler/trace/NestingStack.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// A trace whose activities are not held: everything else in `header` (its activities
// empty), the activities sorted on disk (ActivitySorter's SortedActivities, or a job's
// ranks one after another), and what the source learnt of them while reading.
// stream_activities passes them once, in Trace::sort's order with their nesting depths,
// exactly as the whole trace would hold them (materialize).
struct StreamedTrace {
    Trace header;
    std::unique_ptr<ActivityStream> activities;  // none: no activities
    std::int64_t activity_count = 0;
    // Subtracted from each activity's times as it passes (the source's t = 0).
    std::int64_t shift_ns = 0;
    std::int64_t first_start_ns = 0;  // earliest start, after the shift
    bool has_gpu_work = false;        // a kernel, memcpy or memset
    // The source's own joins: each activity with the intervals enclosing it on its lane
    // (empty on GPU streams), then once after the last one, to complete the header.
    std::function<void(const Activity&, std::span<const NestingStack::Open>, const Trace&)>
        on_activity;
    std::function<void(Trace&)> on_end;
};

// Passes every activity of `trace` to `visit`, once; afterwards trace.header is complete
// (the source's on_end has run).
void stream_activities(StreamedTrace& trace, const std::function<void(const Activity&)>& visit);

// Passes them the same way but without the source's joins, and rewinds, for a pass that
// must see them all before the real one (what the lane summaries keep).
void preview_activities(StreamedTrace& trace, const std::function<void(const Activity&)>& visit);

// A second reader of a streamed trace's activities, for passes like preview_activities on
// another thread while stream_activities runs on this one (the import's lane summaries
// beside its inserts). It copies what it needs of the trace when made (the shift, the
// lanes), as stream_activities may complete the header meanwhile. available() is false
// where the activities have no second reader (held in memory, a job's ranks): pass twice.
class SecondPass {
  public:
    explicit SecondPass(const StreamedTrace& trace);
    [[nodiscard]] bool available() const { return reader_ != nullptr; }
    // As preview_activities, through this reader; then from the first again.
    void preview(const std::function<void(const Activity&)>& visit);
    [[nodiscard]] std::span<const Lane> lanes() const { return lanes_; }

  private:
    std::unique_ptr<ActivityStream> reader_;
    std::int64_t shift_ns_;
    std::vector<Lane> lanes_;
};

// Runs the source's joins now, in a pass that keeps nothing, and rewinds: the header is
// complete before the activities pass for good, and the joins' state is freed. A job's
// assembly needs every rank's strings and collectives before its activities pass.
void complete_header(StreamedTrace& trace);

// The whole trace, as if it had been built in memory.
Trace materialize(StreamedTrace&& trace);

}  // namespace trainscope::profiler
