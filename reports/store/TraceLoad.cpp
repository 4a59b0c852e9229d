// Reading a stored trace back: the run's tables in one pass each (TraceStore.cpp writes
// them), with a stop flag and progress for the GUI's loader.
#include <sqlite3.h>

#include <atomic>
#include <exception>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/BatchPipe.hpp"
#include "reports/store/ActivityRow.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceOutline.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {

using profiler::Activity;
using profiler::Trace;

namespace {

// Rows read between two looks at the stop flag and two progress reports: a few
// milliseconds of reading.
constexpr std::int64_t kChunkRows = 16384;
// SQLite virtual-machine instructions between two calls of the progress handler.
constexpr int kInstructionsPerCheck = 20000;

// While alive, the connection's progress handler interrupts any statement once `stop`
// is raised (the statement's step then fails with SQLITE_INTERRUPT).
class InterruptOnStop {
  public:
    InterruptOnStop(sqlite3* db, const std::atomic<bool>* stop) : db_(db), stop_(stop) {
        if (stop_ != nullptr)
            sqlite3_progress_handler(db_, kInstructionsPerCheck, &InterruptOnStop::check,
                                     const_cast<std::atomic<bool>*>(stop_));
    }
    ~InterruptOnStop() {
        if (stop_ != nullptr)
            sqlite3_progress_handler(db_, 0, nullptr, nullptr);
    }
    InterruptOnStop(const InterruptOnStop&) = delete;
    InterruptOnStop& operator=(const InterruptOnStop&) = delete;

  private:
    static int check(void* stop) {
        return static_cast<const std::atomic<bool>*>(stop)->load(std::memory_order_relaxed) ? 1 : 0;
    }
    sqlite3* db_;
    const std::atomic<bool>* stop_;
};

bool stopped(const TraceLoadControl& control) {
    return control.stop != nullptr && control.stop->load(std::memory_order_relaxed);
}

void throw_if_stopped(const TraceLoadControl& control) {
    if (stopped(control))
        throw TraceLoadStopped();
}

// trace_info's row: the trace's clock fields in `trace`, where its activities are.
struct StoredActivities {
    // The rowids of the first and last (0 and 0 for none): a load reads one rowid range
    // instead of searching by run.
    std::int64_t first_rowid = 0;
    std::int64_t last_rowid = 0;
    std::int64_t count = 0;
};

std::optional<StoredActivities> read_trace_info(const ResultsDatabase& db, std::int64_t run_id,
                                                Trace& trace) {
    // Files before schema 3 hold one rank.
    auto info = db.prepare(db.schema_version() >= 3
                               ? "SELECT base_ns, capture_begin_ns, capture_end_ns, "
                                 "dropped_records, first_activity, last_activity, activity_count, "
                                 "source_clock_offset_ns, world_size FROM trace_info WHERE "
                                 "run_id = ?1"
                               : "SELECT base_ns, capture_begin_ns, capture_end_ns, "
                                 "dropped_records, first_activity, last_activity, activity_count, "
                                 "source_clock_offset_ns, 1 FROM trace_info WHERE run_id = ?1");
    info.bind(1, run_id);
    if (!info.step())
        return std::nullopt;
    trace.base_ns = info.column_int64(0);
    trace.capture_begin_ns = info.column_int64(1);
    trace.capture_end_ns = info.column_int64(2);
    trace.dropped_records = info.column_int64(3);
    StoredActivities stored{info.column_int64(4), info.column_int64(5), info.column_int64(6)};
    trace.source_clock_offset_ns = info.column_int64(7);
    trace.world_size = static_cast<std::int32_t>(info.column_int64(8));
    if (trace.world_size < 1) {
        throw StoreError("trace of run " + std::to_string(run_id) + " in '" + db.path().string() +
                         "' has a world size below 1; the file is damaged");
    }
    return stored;
}

void read_collectives(const ResultsDatabase& db, std::int64_t run_id, Trace& trace) {
    if (db.schema_version() < 3)
        return;
    auto coll = db.prepare(
        "SELECT rank, kind, lane, start_ns, end_ns, sequence, elements, bytes, group_size, "
        "group_id, dtype_id FROM collectives WHERE run_id = ?1 ORDER BY rowid");
    coll.bind(1, run_id);
    while (coll.step()) {
        profiler::CollectiveCall c;
        c.rank = static_cast<std::int32_t>(coll.column_int64(0));
        c.kind = static_cast<profiler::CollectiveKind>(coll.column_int64(1));
        c.lane = static_cast<profiler::LaneId>(coll.column_int64(2));
        c.start_ns = coll.column_int64(3);
        c.end_ns = coll.column_int64(4);
        c.sequence = coll.column_int64(5);
        c.elements = coll.column_int64(6);
        c.bytes = coll.column_int64(7);
        c.group_size = static_cast<std::int32_t>(coll.column_int64(8));
        c.group = static_cast<profiler::StringId>(coll.column_int64(9));
        c.dtype = static_cast<profiler::StringId>(coll.column_int64(10));
        if (c.lane >= trace.lanes.size() || c.group >= trace.strings.size() ||
            c.dtype >= trace.strings.size()) {
            throw StoreError("collectives of run " + std::to_string(run_id) + " in '" +
                             db.path().string() +
                             "' refer to a missing lane or name; the file is damaged");
        }
        trace.collectives.push_back(c);
    }
}

// Rows decoded per batch, and batches in flight between the decoding thread and the
// visiting one: about 1 MB of activities whatever the run's size.
constexpr std::size_t kRowsPerBatch = 2048;
constexpr std::size_t kBatchesInFlight = 4;

using ActivityPipe = BatchPipe<Activity>;

// The decoding thread's part: the range's rows, each checked against the header, a
// batch at a time, until the rows end or the visitor stops taking them. A failure (a
// damaged row, SQLite's error or interruption) ends the rows there and is left in
// `error`: the visitor gets every row before it, as on one thread, then throws it.
void decode_rows(Statement& act, const Trace& header, std::int64_t run_id,
                 const std::filesystem::path& file, ActivityColumns columns, ActivityPipe& pipe,
                 std::exception_ptr& error) {
    ActivityPipe::Batch* batch = nullptr;
    try {
        while ((batch != nullptr || (batch = pipe.take_empty()) != nullptr) && act.step()) {
            const Activity a = detail::activity_from_row(act, columns);
            check_stored_activity(a, header, run_id, file);
            batch->next_slot() = a;
            if (batch->size == kRowsPerBatch) {
                pipe.send(batch);
                batch = nullptr;
            }
        }
    } catch (...) {
        error = std::current_exception();
    }
    if (batch != nullptr && batch->size > 0)
        pipe.send(batch);
    pipe.close();
}

// The bulk of a trace, in trace order, with a look at the stop flag and a progress report
// every kChunkRows rows. The one reader of the rows for load_trace and scan_activities.
// SQLite's stepping and decoding, most of a whole-run analysis's time, run on a thread of
// their own beside `visit`, so a read keeps two cores busy; `visit` sees the rows on the
// calling thread, in order, exactly as on one thread.
bool visit_activities(const ResultsDatabase& db, std::int64_t run_id, StoredActivities stored,
                      const Trace& header,
                      const std::function<bool(const Activity&, std::size_t)>& visit,
                      ActivityColumns columns, const TraceLoadControl& control) {
    auto act = db.prepare(detail::activity_range_sql(db.schema_version(), columns));
    act.bind(1, stored.first_rowid).bind(2, stored.last_rowid);
    ActivityPipe pipe(kBatchesInFlight);
    std::exception_ptr decode_error;
    std::thread decoder(
        [&] { decode_rows(act, header, run_id, db.path(), columns, pipe, decode_error); });
    // However the visitor leaves (it stops, throws, or the flag is raised), the decoder is
    // released and joined before the statement it steps is finalized.
    struct JoinDecoder {
        ActivityPipe& pipe;
        std::thread& decoder;
        ~JoinDecoder() {
            pipe.stop();
            if (decoder.joinable())
                decoder.join();
        }
    } join{pipe, decoder};
    std::int64_t rows_read = 0;
    bool completed = true;
    while (completed) {
        ActivityPipe::Batch* batch = pipe.receive();
        if (batch == nullptr)
            break;
        for (std::size_t i = 0; i < batch->size; ++i) {
            if (!visit(batch->items[i], static_cast<std::size_t>(rows_read))) {
                completed = false;
                break;
            }
            if (++rows_read % kChunkRows == 0) {
                throw_if_stopped(control);
                if (control.progress && stored.count > 0)
                    control.progress(static_cast<double>(rows_read) /
                                     static_cast<double>(stored.count));
            }
        }
        pipe.give_back(batch);
    }
    pipe.stop();
    decoder.join();
    // An error past the row the visitor stopped at is not its concern, as on one thread.
    if (decode_error && completed)
        std::rethrow_exception(decode_error);
    return completed;
}

void read_activities(const ResultsDatabase& db, std::int64_t run_id, StoredActivities stored,
                     Trace& trace, const TraceLoadControl& control) {
    trace.activities.reserve(static_cast<std::size_t>(stored.count));
    visit_activities(
        db, run_id, stored, trace,
        [&trace](const Activity& a, std::size_t) {
            trace.activities.push_back(a);
            return true;
        },
        ActivityColumns::all, control);
}

void read_counters(const ResultsDatabase& db, std::int64_t run_id, Trace& trace,
                   const TraceLoadControl& control) {
    // Version 5 keeps each series' rank; older files' series are rank 0's.
    auto series = db.prepare(db.schema_version() >= 5
                                 ? "SELECT series, name, unit, device, rank FROM counter_series "
                                   "WHERE run_id = ?1 ORDER BY series"
                                 : "SELECT series, name, unit, device, 0 FROM counter_series "
                                   "WHERE run_id = ?1 ORDER BY series");
    series.bind(1, run_id);
    while (series.step()) {
        trace.counters.push_back(
            profiler::CounterSeries{series.column_text(1),
                                    series.column_text(2),
                                    static_cast<std::int32_t>(series.column_int64(3)),
                                    {},
                                    static_cast<std::int32_t>(series.column_int64(4))});
    }
    auto sample = db.prepare(
        "SELECT series, t_ns, value FROM counters WHERE run_id = ?1 ORDER BY series, t_ns");
    sample.bind(1, run_id);
    std::int64_t rows_read = 0;
    while (sample.step()) {
        const auto s = static_cast<std::size_t>(sample.column_int64(0));
        if (s < trace.counters.size())
            trace.counters[s].samples.push_back({sample.column_int64(1), sample.column_double(2)});
        if (++rows_read % kChunkRows == 0)
            throw_if_stopped(control);
    }
}

}  // namespace

namespace {

std::optional<Trace> load_trace_parts(const ResultsDatabase& db, std::int64_t run_id,
                                      const TraceLoadControl& control, bool with_activities) {
    throw_if_stopped(control);
    const InterruptOnStop interrupt(db.handle(), control.stop);
    try {
        Trace trace;
        const auto stored = read_trace_info(db, run_id, trace);
        if (!stored)
            return std::nullopt;
        detail::read_strings(db, run_id, trace);
        detail::read_lanes(db, run_id, trace);
        detail::read_metadata(db, run_id, trace);
        throw_if_stopped(control);
        if (with_activities)
            read_activities(db, run_id, *stored, trace, control);
        read_collectives(db, run_id, trace);
        read_counters(db, run_id, trace, control);
        throw_if_stopped(control);
        if (control.progress && with_activities)
            control.progress(1.0);
        return trace;
    } catch (const SqliteError& e) {
        // The progress handler's interruption is a stop, not a fault of the file.
        if (e.code() == SQLITE_INTERRUPT && stopped(control))
            throw TraceLoadStopped();
        throw;
    }
}

}  // namespace

void check_stored_activity(const Activity& a, const Trace& header, std::int64_t run_id,
                           const std::filesystem::path& file) {
    if (a.name >= header.strings.size() || a.lane >= header.lanes.size()) {
        throw StoreError("trace of run " + std::to_string(run_id) + " in '" + file.string() +
                         "' refers to a missing name or lane; the file is damaged");
    }
}

std::optional<Trace> load_trace(const ResultsDatabase& db, std::int64_t run_id,
                                const TraceLoadControl& control) {
    return load_trace_parts(db, run_id, control, true);
}

std::optional<Trace> load_trace_header(const ResultsDatabase& db, std::int64_t run_id,
                                       const TraceLoadControl& control) {
    return load_trace_parts(db, run_id, control, false);
}

bool scan_activities(const ResultsDatabase& db, std::int64_t run_id, const Trace& header,
                     const std::function<bool(const Activity&, std::size_t)>& visit,
                     ActivityColumns columns, const TraceLoadControl& control) {
    throw_if_stopped(control);
    const InterruptOnStop interrupt(db.handle(), control.stop);
    try {
        Trace info;
        const auto stored = read_trace_info(db, run_id, info);
        if (!stored)
            return true;
        return visit_activities(db, run_id, *stored, header, visit, columns, control);
    } catch (const SqliteError& e) {
        if (e.code() == SQLITE_INTERRUPT && stopped(control))
            throw TraceLoadStopped();
        throw;
    }
}

std::vector<std::int64_t> traced_run_ids(const ResultsDatabase& db) {
    auto ids = db.prepare(
        "SELECT t.run_id FROM trace_info t JOIN runs r ON r.id = t.run_id "
        "WHERE r.status = 'ok' AND t.activity_count > 0 ORDER BY t.run_id");
    std::vector<std::int64_t> out;
    while (ids.step())
        out.push_back(ids.column_int64(0));
    return out;
}

}  // namespace trainscope::reports
