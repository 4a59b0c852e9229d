// Reading a stored trace back: the run's tables in one pass each (TraceStore.cpp writes
// them), with a stop flag and progress for the GUI's loader.
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/BatchPipe.hpp"
#include "profiler/sqlite/SqliteReadSnapshot.hpp"
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

// The rows are read in chunks of kRowsPerChunk consecutive rowids, one batch each, with
// kBatchesInFlight batches per decoding thread: about 1 MB of activities each, whatever
// the run's size.
constexpr std::int64_t kRowsPerChunk = 2048;
constexpr std::size_t kBatchesInFlight = 4;
// From this many rows a run is decoded on two threads (below it, the second connection's
// opening is not worth it).
constexpr std::int64_t kRowsForTwoDecoders = 65536;

using ActivityPipe = BatchPipe<Activity>;

// What the decoding threads share: the run's rowid range cut into chunks, chunk k decoded
// by thread k % decoders.
struct RowChunks {
    std::int64_t first_rowid = 0;
    std::int64_t last_rowid = 0;
    std::size_t decoders = 1;

    [[nodiscard]] std::int64_t count() const {
        return last_rowid < first_rowid ? 0 : (last_rowid - first_rowid) / kRowsPerChunk + 1;
    }
};

// One decoding thread's part: its chunks' rows, each checked against the header, one batch
// a chunk (empty for a chunk without rows), until its chunks end or the visitor stops
// taking them. A failure (a damaged row, SQLite's error or interruption) ends the chunk's
// batch there and goes with it: the visitor takes every row before it, then throws it.
void decode_chunks(Statement& act, const RowChunks& chunks, std::size_t decoder,
                   const Trace& header, std::int64_t run_id, const std::filesystem::path& file,
                   ActivityColumns columns, ActivityPipe& pipe) {
    for (auto k = static_cast<std::int64_t>(decoder); k < chunks.count();
         k += static_cast<std::int64_t>(chunks.decoders)) {
        ActivityPipe::Batch* batch = pipe.take_empty();
        if (batch == nullptr)
            break;
        try {
            const std::int64_t first = chunks.first_rowid + k * kRowsPerChunk;
            act.reset();
            act.bind(1, first).bind(2, std::min(chunks.last_rowid, first + kRowsPerChunk - 1));
            while (act.step()) {
                const Activity a = detail::activity_from_row(act, columns);
                check_stored_activity(a, header, run_id, file);
                batch->next_slot() = a;
            }
        } catch (...) {
            batch->error = std::current_exception();
        }
        const bool failed = batch->error != nullptr;
        pipe.send(batch);
        if (failed)
            break;
    }
    pipe.close();
}

// What a read of `run_id`'s rows depends on, as connection `c` sees it. A writer that
// replaces or deletes a run (`run --resume`, the Slurm collector) changes the runs table;
// but ids and rowids are not AUTOINCREMENT, so a run that replaces the newest one after
// deleting it may get its id and rowids back: its rows' times and names tell it apart
// (the first, middle and last rows here). Two connections that see the same here read the
// same rows of the run, or a replacement that holds those same rows.
std::string state_seen(const profiler::SqliteConnection& c, std::int64_t run_id) {
    auto state = c.prepare(
        "SELECT (SELECT count(*) FROM runs), (SELECT max(id) FROM runs), (SELECT max(rowid) "
        "FROM activities), (SELECT max(version) FROM schema_version), r.started_utc, "
        "r.finished_utc, t.first_activity, t.last_activity, t.activity_count, "
        "(SELECT group_concat(a.start_ns || ',' || a.end_ns || ',' || a.name_id, ';') FROM "
        "activities a WHERE a.rowid IN (t.first_activity, (t.first_activity + "
        "t.last_activity) / 2, t.last_activity)) FROM runs r JOIN trace_info t ON t.run_id = "
        "r.id WHERE r.id = ?1");
    state.bind(1, run_id);
    std::string seen;
    if (state.step()) {
        for (int column = 0; column < 10; ++column)
            seen.append(state.column_text(column)).push_back('\x1f');
    }
    return seen;
}

// A second read-only connection holding a read transaction of its own, for a second
// decoding thread.
class SecondReader {
  public:
    explicit SecondReader(const char* file)
        : connection_(file, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX), snapshot_(connection_) {
        // A writer's lock makes this connection give up soon: one decoder does the read.
        TS_SQLITE_CHECK(sqlite3_busy_timeout(connection_.handle(), 100));
    }
    [[nodiscard]] const profiler::SqliteConnection& connection() const { return connection_; }

  private:
    profiler::SqliteConnection connection_;
    profiler::SqliteReadSnapshot snapshot_;
};

// A second connection for a run large enough, on a machine with two cores, when it reads
// the very state of the file the caller's read transaction reads (SQLite shares no
// snapshot between connections: it is checked instead, and a writer's commit in between
// keeps the read on one decoder). Not inside a write transaction, whose rows no other
// connection sees, nor for a database without a file. Its failing is no error: the read
// keeps one decoder.
std::unique_ptr<SecondReader> second_reader(const ResultsDatabase& db, std::int64_t run_id,
                                            std::int64_t rows) {
    if (rows < kRowsForTwoDecoders || std::thread::hardware_concurrency() < 2 ||
        sqlite3_txn_state(db.handle(), "main") != SQLITE_TXN_READ)
        return nullptr;
    const char* file = sqlite3_db_filename(db.handle(), "main");
    if (file == nullptr || *file == '\0')
        return nullptr;
    try {
        auto second = std::make_unique<SecondReader>(file);
        // Its snapshot starts with this first read.
        if (state_seen(second->connection(), run_id) != state_seen(db, run_id))
            return nullptr;
        return second;
    } catch (const SqliteError&) {
        return nullptr;
    }
}

// The bulk of a trace, in trace order, with a look at the stop flag and a progress report
// every kChunkRows rows. The one reader of the rows for load_trace and scan_activities.
// SQLite's stepping and decoding, most of a whole-run analysis's time, run on threads of
// their own (two for a large run, each on its own connection, taking chunks in turn)
// beside `visit`, which sees the rows on the calling thread, in order, exactly as on one
// thread.
bool visit_activities(const ResultsDatabase& db, std::int64_t run_id, StoredActivities stored,
                      const Trace& header,
                      const std::function<bool(const Activity&, std::size_t)>& visit,
                      ActivityColumns columns, const TraceLoadControl& control) {
    const std::unique_ptr<SecondReader> second = second_reader(db, run_id, stored.count);
    std::optional<InterruptOnStop> second_interrupt;
    if (second)
        second_interrupt.emplace(second->connection().handle(), control.stop);
    const RowChunks chunks{stored.first_rowid, stored.last_rowid, second ? 2u : 1u};
    const char* sql = detail::activity_range_sql(db.schema_version(), columns);
    std::vector<Statement> statements;
    statements.push_back(db.prepare(sql));
    if (second)
        statements.push_back(second->connection().prepare(sql));
    std::vector<std::unique_ptr<ActivityPipe>> pipes;
    std::vector<std::thread> decoders;
    // However the visitor leaves (it stops, throws, or the flag is raised), the decoders
    // are released and joined before the statements they step are finalized.
    struct JoinDecoders {
        std::vector<std::unique_ptr<ActivityPipe>>& pipes;
        std::vector<std::thread>& decoders;
        ~JoinDecoders() {
            for (auto& pipe : pipes)
                pipe->stop();
            for (std::thread& decoder : decoders) {
                if (decoder.joinable())
                    decoder.join();
            }
        }
    } join{pipes, decoders};
    for (std::size_t d = 0; d < chunks.decoders; ++d)
        pipes.push_back(std::make_unique<ActivityPipe>(kBatchesInFlight));
    for (std::size_t d = 0; d < chunks.decoders; ++d) {
        decoders.emplace_back([&, d] {
            decode_chunks(statements[d], chunks, d, header, run_id, db.path(), columns, *pipes[d]);
        });
    }
    std::int64_t rows_read = 0;
    for (std::int64_t k = 0; k < chunks.count(); ++k) {
        ActivityPipe& pipe = *pipes[static_cast<std::size_t>(k) % chunks.decoders];
        ActivityPipe::Batch* batch = pipe.receive();
        if (batch == nullptr)
            throw std::logic_error("a decoding thread of run " + std::to_string(run_id) +
                                   " closed before its chunks were read");
        for (std::size_t i = 0; i < batch->size; ++i) {
            if (!visit(batch->items[i], static_cast<std::size_t>(rows_read))) {
                pipe.give_back(batch);
                return false;
            }
            if (++rows_read % kChunkRows == 0) {
                throw_if_stopped(control);
                if (control.progress && stored.count > 0)
                    control.progress(static_cast<double>(rows_read) /
                                     static_cast<double>(stored.count));
            }
        }
        const std::exception_ptr error = batch->error;
        pipe.give_back(batch);
        if (error)
            std::rethrow_exception(error);
    }
    return true;
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
    // One state of the file for the header and every chunk of the rows.
    const profiler::SqliteReadSnapshot snapshot(db);
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
    const profiler::SqliteReadSnapshot snapshot(db);
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

std::size_t detail::row_decoders(const ResultsDatabase& db, std::int64_t run_id) {
    Trace info;
    const auto stored = read_trace_info(db, run_id, info);
    return stored && second_reader(db, run_id, stored->count) ? 2 : 1;
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
