#pragma once

#include <cstdint>
#include <string>

#include "profiler/trace/Trace.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::harness {

// The trace of one run of a results database, for the commands that work on traces.
// Throws StoreError for a missing file or run, UsageError for a run without a trace
// (naming how to record or import one).
profiler::Trace load_run_trace(const std::string& database, std::int64_t run_id);

// The same trace without its activities (reports::load_trace_header), from an open
// `db` whose path the user wrote as `database`; same errors. For a command that reads
// the activities one at a time.
profiler::Trace load_run_trace_header(const reports::ResultsDatabase& db,
                                      const std::string& database, std::int64_t run_id);

}  // namespace trainscope::harness
