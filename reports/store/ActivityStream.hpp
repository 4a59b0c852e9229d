#pragma once

#include <cstdint>

#include "profiler/trace/Trace.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// A stored run's activities read once, one at a time, in trace order (the run's rowid
// range, as load_trace reads them), each checked against the run's lanes and names:
// what a reader that must not hold a huge run (`trainscope export`) takes them from, and
// what load_trace fills its vector from. Holds one SQLite statement.
class ActivityStream {
  public:
    // `header`: the run's trace without its activities (load_trace_header), whose lanes and
    // names the rows must refer to; `db` and `header` must outlive the stream. StoreError
    // when the run has no trace.
    ActivityStream(const ResultsDatabase& db, std::int64_t run_id, const profiler::Trace& header);

    // The activity count trace_info records.
    [[nodiscard]] std::int64_t size() const { return count_; }
    // The next activity into `out`; false after the last. StoreError for a row naming a
    // missing lane or name (a damaged file).
    bool next(profiler::Activity& out);

  private:
    const ResultsDatabase& db_;
    std::int64_t run_id_ = 0;
    const profiler::Trace& header_;
    std::int64_t count_ = 0;
    Statement rows_;
};

}  // namespace trainscope::reports
