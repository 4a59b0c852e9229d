#pragma once

#include <memory>

#include "profiler/trace/Activity.hpp"

namespace trainscope::profiler {

// Activities in Trace::sort's order (lane, start, the longer first), read one at a time
// and again from the first after rewind: the sorted runs of one file (SortedActivities),
// or the ranks of a job one after another (JobAssembly).
class ActivityStream {
  public:
    ActivityStream() = default;
    ActivityStream(const ActivityStream&) = delete;
    ActivityStream& operator=(const ActivityStream&) = delete;
    virtual ~ActivityStream() = default;

    // The next activity into `out`; false after the last.
    virtual bool next(Activity& out) = 0;
    // Back to the first activity, to read them all again.
    virtual void rewind() = 0;
    // A second reader of the same activities, from the first, independent of this one: a
    // pass on another thread while this one is read. Null where the stream has none (the
    // caller then reads this one twice).
    [[nodiscard]] virtual std::unique_ptr<ActivityStream> another_reader() const { return nullptr; }

  protected:
    ActivityStream(ActivityStream&&) = default;
    ActivityStream& operator=(ActivityStream&&) = default;
};

}  // namespace trainscope::profiler
