#pragma once

#include <cstdint>
#include <optional>

#include "profiler/trace/Trace.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// A run's trace without its activities, collectives and counters: its clocks, names, lanes
// and metadata, a few milliseconds to read however large the trace. With the stored
// level-of-detail summaries (load_lane_summaries) it is what a timeline needs to paint
// its first frame while the activities load (the GUI's TraceLoader). nullopt when the
// run has no trace; StoreError for damaged names, SqliteError for an unreadable file.
std::optional<profiler::Trace> load_trace_outline(const ResultsDatabase& db, std::int64_t run_id);

namespace detail {
// The parts load_trace and load_trace_outline both read, into `trace`.
void read_strings(const ResultsDatabase& db, std::int64_t run_id, profiler::Trace& trace);
void read_lanes(const ResultsDatabase& db, std::int64_t run_id, profiler::Trace& trace);
void read_metadata(const ResultsDatabase& db, std::int64_t run_id, profiler::Trace& trace);
}  // namespace detail

}  // namespace trainscope::reports
