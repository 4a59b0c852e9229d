#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "profiler/trace/StreamedTrace.hpp"
#include "profiler/trace/Trace.hpp"
#include "reports/store/ActivityRow.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// Writes a run's trace tables (strings, lanes, activities, counters). Call inside the
// run's transaction.
void write_trace(const ResultsDatabase& db, std::int64_t run_id, const profiler::Trace& trace);

// Writes the same tables for a trace whose activities pass once (profiler::StreamedTrace,
// a huge import): each activity is written, nested and summarised as it passes, and
// handed to `also` (the run's metrics); the rest follows once they have passed. Consumes
// the trace's activities. Call inside the run's transaction.
void write_streamed_trace(const ResultsDatabase& db, std::int64_t run_id,
                          profiler::StreamedTrace& trace,
                          const std::function<void(const profiler::Activity&)>& also = {});

// How a caller (the GUI's loader) stops a long trace load and follows it. `stop` is read
// between chunks of rows and, through the connection's progress handler, inside a long
// SQLite step (a sort), so raising it ends the load of millions of rows promptly.
struct TraceLoadControl {
    const std::atomic<bool>* stop = nullptr;
    // The share of the run's activities read so far (0..1), between chunks, on the
    // loading thread.
    std::function<void(double)> progress;
};

// Thrown by load_trace when TraceLoadControl::stop was raised: the load was abandoned
// on request, not failed.
class TraceLoadStopped : public std::exception {
  public:
    [[nodiscard]] const char* what() const noexcept override { return "trace load stopped"; }
};

// Loads a run's trace; nullopt when the run has none. StoreError for a damaged trace,
// SqliteError for an unreadable file, TraceLoadStopped when stopped.
std::optional<profiler::Trace> load_trace(const ResultsDatabase& db, std::int64_t run_id,
                                          const TraceLoadControl& control = {});

// The same trace without its activities (clocks, names, lanes, metadata, collectives,
// counters): what a reader that takes the activities one at a time by their index
// (ActivityReader, the GUI's loader of a huge run) needs beside them. Same errors.
std::optional<profiler::Trace> load_trace_header(const ResultsDatabase& db, std::int64_t run_id,
                                                 const TraceLoadControl& control = {});

// StoreError naming the run and `file` when a stored activity refers to a name or lane its
// trace (`header`) does not have: load_trace checks each row with it, and so does a reader
// of rows by index (the GUI's loader).
void check_stored_activity(const profiler::Activity& a, const profiler::Trace& header,
                           std::int64_t run_id, const std::filesystem::path& file);

// Passes a run's stored activities to `visit` one at a time, in trace order (the order
// load_trace gives them), with their index in the trace, holding none of them: what a
// whole-run analysis that feeds accumulators reads instead of load_trace (analyze and
// report --csv on a huge run). `header` is the run's load_trace_header; `columns` which
// columns are filled (ActivityColumns: `analysis` leaves the launch
// configuration 0). `visit` returns false to stop the scan early; then so does this.
// StoreError when a row names a missing name or lane, SqliteError for an unreadable
// file, TraceLoadStopped when stopped; nothing is passed for a run without a trace.
// SQLite decodes the rows on one or two threads of their own meanwhile: `visit` must not
// use `db`.
bool scan_activities(const ResultsDatabase& db, std::int64_t run_id, const profiler::Trace& header,
                     const std::function<bool(const profiler::Activity&, std::size_t)>& visit,
                     ActivityColumns columns = ActivityColumns::all,
                     const TraceLoadControl& control = {});

// The ok runs whose trace holds at least one activity, by id: what a timeline can show.
std::vector<std::int64_t> traced_run_ids(const ResultsDatabase& db);

namespace detail {
// How many threads a read of `run_id`'s rows on `db` would decode them with now: 2 for a
// large run when a second connection sees the state `db` reads (inside a read transaction),
// else 1. The reader's own choice, for the tests that check both ways are taken.
std::size_t row_decoders(const ResultsDatabase& db, std::int64_t run_id);
}  // namespace detail

}  // namespace trainscope::reports
