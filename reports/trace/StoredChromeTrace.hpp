#pragma once

#include <cstdint>
#include <ostream>

#include "profiler/trace/Trace.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// A stored run's trace as Chrome trace JSON, the bytes profiler::write_chrome_trace writes
// for the loaded trace, without holding its activities: the rows pass once in trace order
// into the writer (scan_activities), then the flows come from SQLite's join of the GPU
// work to its launches (LaunchFlowStream, on disk). Memory is the header, one row and
// SQLite's caches, whatever the run's size. `header` is the run's load_trace_header.
// Returns the number of activities written. StoreError for a damaged file.
std::int64_t write_stored_chrome_trace(const ResultsDatabase& db, std::int64_t run_id,
                                       const profiler::Trace& header, std::ostream& out);

}  // namespace trainscope::reports
