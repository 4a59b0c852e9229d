#include "reports/store/TraceStore.hpp"

#include <sqlite3.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "profiler/analysis/LaneSummary.hpp"
#include "profiler/analysis/RowSummarizer.hpp"
#include "profiler/sqlite/SqliteChangedBindings.hpp"
#include "reports/store/ActivityRow.hpp"
#include "reports/store/LaneSummaryStore.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceOutline.hpp"

namespace trainscope::reports {

using profiler::Activity;
using profiler::ActivityKind;
using profiler::CopyKind;
using profiler::Lane;
using profiler::LaneKind;
using profiler::Trace;

namespace {

// ---- writing: one pass per table --------------------------------------------------------

void write_strings(const ResultsDatabase& db, std::int64_t run_id, const Trace& trace) {
    auto str = db.prepare("INSERT INTO strings (run_id, id, value) VALUES (?1, ?2, ?3)");
    for (std::size_t i = 0; i < trace.strings.size(); ++i) {
        str.bind(1, run_id)
            .bind(2, static_cast<std::int64_t>(i))
            .bind(3, trace.strings.at(static_cast<profiler::StringId>(i)))
            .run();
    }
}

void write_lanes(const ResultsDatabase& db, std::int64_t run_id, const Trace& trace) {
    auto lane = db.prepare(
        "INSERT INTO lanes (run_id, lane, kind, device, stream_or_thread, process, name, rank) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        const Lane& l = trace.lanes[i];
        lane.bind(1, run_id)
            .bind(2, static_cast<std::int64_t>(i))
            .bind(3, static_cast<int>(l.kind))
            .bind(4, l.device)
            .bind(5, l.stream_or_thread)
            .bind(6, l.process)
            .bind(7, l.name)
            .bind(8, l.rank)
            .run();
    }
}

void write_metadata(const ResultsDatabase& db, std::int64_t run_id, const Trace& trace) {
    auto meta = db.prepare("INSERT INTO trace_metadata (run_id, key, value) VALUES (?1, ?2, ?3)");
    for (const auto& [key, value] : trace.metadata)
        meta.bind(1, run_id).bind(2, key).bind(3, value).run();
}

// The rowids of the first and last activity written (0 and 0 for none): trace_info
// keeps them, so a load reads one rowid range instead of searching by run.
struct RowidRange {
    std::int64_t first = 0;
    std::int64_t last = 0;
};

// The activities table's inserts, keeping the rowid range. Rows go in kRowsPerInsert at a
// time through one multi-row INSERT: SQLite's per-statement work (step, reset, opening
// the table's cursor, the VDBE's start and halt) was a third of the store thread's time
// at one row per statement. The rows, their order and their rowids are the same: one
// INSERT numbers its rows consecutively, in the order of its VALUES. The multi-row
// statement keeps its bindings from one run to the next and only the values that differ
// from the row kRowsPerInsert before are bound: in trace order about three quarters
// repeat (a 1 GB Kineto trace: 77 % of the columns after run_id).
class ActivityRows {
  public:
    static constexpr std::size_t kRowsPerInsert = 32;  // 672 parameters, under SQLite's 999

    ActivityRows(const ResultsDatabase& db, std::int64_t run_id)
        : db_(db),
          run_id_(run_id),
          one_(db.prepare(insert_sql(1))),
          many_(db.prepare(insert_sql(kRowsPerInsert))),
          many_bindings_(many_, static_cast<int>(kRowsPerInsert * kColumns)) {
        pending_.reserve(kRowsPerInsert);
    }
    ActivityRows(const ActivityRows&) = delete;  // many_bindings_ refers to many_
    ActivityRows& operator=(const ActivityRows&) = delete;
    void add(const Activity& a) {
        pending_.push_back(a);
        if (pending_.size() == kRowsPerInsert)
            write(many_bindings_);
    }
    // Writes the rows still held; rows() and count() are complete after it.
    void finish() {
        const std::vector<Activity> rest = std::move(pending_);
        pending_.clear();
        for (const Activity& a : rest) {
            pending_.assign(1, a);
            write(one_);
        }
    }
    [[nodiscard]] RowidRange rows() const { return rows_; }
    [[nodiscard]] std::int64_t count() const { return count_; }

  private:
    static std::string insert_sql(std::size_t rows) {
        std::string sql =
            "INSERT INTO activities (run_id, kind, lane, start_ns, end_ns, name_id, "
            "correlation, bytes, copy_kind, depth, grid_x, grid_y, grid_z, block_x, block_y, "
            "block_z, registers, shared_mem_bytes, graph_id, device, flops) VALUES ";
        for (std::size_t r = 0; r < rows; ++r) {
            sql += r == 0 ? "(" : ", (";
            for (std::size_t c = 0; c < kColumns; ++c) {
                sql += c == 0 ? "?" : ", ?";
                sql += std::to_string(r * kColumns + c + 1);
            }
            sql += ")";
        }
        return sql;
    }

    // `insert`: a Statement (every value bound) or its SqliteChangedBindings.
    template <typename Insert>
    void write(Insert& insert) {
        int p = 0;  // the row's first parameter is p + 1
        for (const Activity& a : pending_) {
            insert.bind(p + 1, run_id_)
                .bind(p + 2, static_cast<int>(a.kind))
                .bind(p + 3, static_cast<std::int64_t>(a.lane))
                .bind(p + 4, a.start_ns)
                .bind(p + 5, a.end_ns)
                .bind(p + 6, static_cast<std::int64_t>(a.name))
                .bind(p + 7, static_cast<std::int64_t>(a.correlation))
                .bind(p + 8, a.bytes)
                .bind(p + 9, static_cast<int>(a.copy_kind))
                .bind(p + 10, static_cast<int>(a.depth))
                .bind(p + 11, a.grid[0])
                .bind(p + 12, a.grid[1])
                .bind(p + 13, a.grid[2])
                .bind(p + 14, a.block[0])
                .bind(p + 15, a.block[1])
                .bind(p + 16, a.block[2])
                .bind(p + 17, a.registers_per_thread)
                .bind(p + 18, a.shared_memory_bytes)
                .bind(p + 19, static_cast<std::int64_t>(a.graph_id))
                .bind(p + 20, a.device)
                .bind(p + 21, static_cast<double>(a.flops));
            p += static_cast<int>(kColumns);
        }
        insert.run();
        const auto n = static_cast<std::int64_t>(pending_.size());
        rows_.last = db_.last_insert_rowid();
        if (rows_.first == 0)
            rows_.first = rows_.last - n + 1;
        count_ += n;
        pending_.clear();
    }

    static constexpr std::size_t kColumns = 21;

    const ResultsDatabase& db_;
    std::int64_t run_id_;
    Statement one_;
    Statement many_;
    profiler::SqliteChangedBindings many_bindings_;
    std::vector<Activity> pending_;
    RowidRange rows_;
    std::int64_t count_ = 0;
};

void write_collectives(const ResultsDatabase& db, std::int64_t run_id, const Trace& trace) {
    auto coll = db.prepare(
        "INSERT INTO collectives (run_id, rank, kind, lane, start_ns, end_ns, sequence, elements, "
        "bytes, group_size, group_id, dtype_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
        "?11, ?12)");
    for (const profiler::CollectiveCall& c : trace.collectives) {
        coll.bind(1, run_id)
            .bind(2, c.rank)
            .bind(3, static_cast<int>(c.kind))
            .bind(4, static_cast<std::int64_t>(c.lane))
            .bind(5, c.start_ns)
            .bind(6, c.end_ns)
            .bind(7, c.sequence)
            .bind(8, c.elements)
            .bind(9, c.bytes)
            .bind(10, c.group_size)
            .bind(11, static_cast<std::int64_t>(c.group))
            .bind(12, static_cast<std::int64_t>(c.dtype))
            .run();
    }
}

void write_counters(const ResultsDatabase& db, std::int64_t run_id, const Trace& trace) {
    auto series = db.prepare(
        "INSERT INTO counter_series (run_id, series, name, unit, device, rank) VALUES (?1, ?2, "
        "?3, ?4, ?5, ?6)");
    auto sample =
        db.prepare("INSERT INTO counters (run_id, series, t_ns, value) VALUES (?1, ?2, ?3, ?4)");
    for (std::size_t i = 0; i < trace.counters.size(); ++i) {
        const auto& c = trace.counters[i];
        series.bind(1, run_id)
            .bind(2, static_cast<std::int64_t>(i))
            .bind(3, c.name)
            .bind(4, c.unit)
            .bind(5, c.device)
            .bind(6, c.rank)
            .run();
        for (const auto& s : c.samples) {
            sample.bind(1, run_id)
                .bind(2, static_cast<std::int64_t>(i))
                .bind(3, s.t_ns)
                .bind(4, s.value)
                .run();
        }
    }
}

void write_trace_info(const ResultsDatabase& db, std::int64_t run_id, const Trace& trace,
                      RowidRange rows, std::int64_t activity_count) {
    auto info = db.prepare(
        "INSERT INTO trace_info (run_id, base_ns, capture_begin_ns, capture_end_ns, "
        "dropped_records, first_activity, last_activity, activity_count, source_clock_offset_ns, "
        "world_size) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    info.bind(1, run_id)
        .bind(2, trace.base_ns)
        .bind(3, trace.capture_begin_ns)
        .bind(4, trace.capture_end_ns)
        .bind(5, trace.dropped_records)
        .bind(6, rows.first)
        .bind(7, rows.last)
        .bind(8, activity_count)
        .bind(9, trace.source_clock_offset_ns)
        .bind(10, trace.world_size)
        .run();
}

}  // namespace

// The inserts of a streamed trace's activities and lane summaries, on a thread of their
// own: the pass over the sorted runs (merging, nesting, summarising, the metrics) keeps
// one core busy and SQLite's inserts the other. Blocks go through a FIFO, so every table
// gets its rows in the order one thread would have written them. Only this thread uses
// the connection until finish() has joined it.
class StoreWorker {
  public:
    StoreWorker(ActivityRows& rows, LaneSummaryWriter& summaries)
        : rows_(rows), summaries_(summaries), thread_([this] { work(); }) {}
    StoreWorker(const StoreWorker&) = delete;
    StoreWorker& operator=(const StoreWorker&) = delete;
    ~StoreWorker() {
        // Left early (an exception): the thread drops what is queued and stops.
        {
            const std::lock_guard lock(mutex_);
            stopped_ = true;
        }
        changed_.notify_all();
        if (thread_.joinable())
            thread_.join();
    }

    void add(const Activity& a) {
        pending_.activities.push_back(a);
        if (pending_.activities.size() == kBlock)
            send();
    }
    // From any thread: a lane's summaries, queued as a block of their own (the rows of
    // each table still go in the order their own thread sent them).
    void write_levels(std::vector<profiler::RowSummaryLevel>&& levels) {
        Block block;
        block.levels = std::move(levels);
        block.has_levels = true;
        enqueue(std::move(block));
    }
    // Waits until everything is written; rethrows what the thread threw.
    void finish() {
        send();
        {
            const std::lock_guard lock(mutex_);
            closed_ = true;
        }
        changed_.notify_all();
        thread_.join();
        if (error_)
            std::rethrow_exception(error_);
        rows_.finish();  // the thread has ended: the connection is this thread's again
    }

  private:
    static constexpr std::size_t kBlock = 4096;
    static constexpr std::size_t kMaxQueued = 4;  // blocks: a few megabytes in flight

    struct Block {
        std::vector<Activity> activities;
        std::vector<profiler::RowSummaryLevel> levels;
        bool has_levels = false;
    };

    void send() {
        if (pending_.activities.empty())
            return;
        enqueue(std::move(pending_));
        pending_ = {};
        {
            const std::lock_guard lock(mutex_);
            if (!spare_.empty()) {  // an emptied block's capacity, reused
                pending_.activities = std::move(spare_.back());
                spare_.pop_back();
            }
        }
        pending_.activities.reserve(kBlock);
    }

    void enqueue(Block&& block) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return queue_.size() < kMaxQueued || error_; });
        if (error_)
            std::rethrow_exception(error_);
        queue_.push_back(std::move(block));
        lock.unlock();
        changed_.notify_all();
    }

    void work() {
        for (;;) {
            Block block;
            {
                std::unique_lock lock(mutex_);
                changed_.wait(lock, [this] { return stopped_ || closed_ || !queue_.empty(); });
                if (stopped_ || queue_.empty())
                    return;
                block = std::move(queue_.front());
                queue_.pop_front();
            }
            changed_.notify_all();
            try {
                for (const Activity& a : block.activities)
                    rows_.add(a);
                if (block.has_levels)
                    summaries_.write(block.levels);
            } catch (...) {
                {
                    const std::lock_guard lock(mutex_);
                    error_ = std::current_exception();
                }
                changed_.notify_all();
                return;
            }
            block.activities.clear();
            const std::lock_guard lock(mutex_);
            spare_.push_back(std::move(block.activities));
        }
    }

    ActivityRows& rows_;
    LaneSummaryWriter& summaries_;
    Block pending_;  // activities: the streaming thread's, not shared
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Block> queue_;
    std::vector<std::vector<Activity>> spare_;
    std::exception_ptr error_;
    bool closed_ = false;
    bool stopped_ = false;
    std::thread thread_;  // last: starts once everything above exists
};

void write_trace(const ResultsDatabase& db, std::int64_t run_id, const Trace& trace) {
    write_strings(db, run_id, trace);
    write_lanes(db, run_id, trace);
    write_metadata(db, run_id, trace);
    ActivityRows rows(db, run_id);
    for (const Activity& a : trace.activities)
        rows.add(a);
    rows.finish();
    write_collectives(db, run_id, trace);
    write_counters(db, run_id, trace);
    write_trace_info(db, run_id, trace, rows.rows(), rows.count());
    // Made here, where every stored trace passes (imports and traced runs), so that a
    // timeline opens a huge run from them.
    write_lane_summaries(db, run_id, profiler::summarize_rows(trace));
}

namespace {

// The lane summaries of a streamed trace, made on a thread of their own through a second
// reader of its sorted runs while the activities pass for the inserts: the summaries'
// planning pass and their building pass no longer come before and beside the inserts on
// one thread. The destructor, reached early by an exception, makes the thread stop at its
// next activity and joins it.
class SummaryThread {
  public:
    SummaryThread(profiler::SecondPass& reader, std::int64_t origin_ns, StoreWorker& inserts)
        : thread_([this, &reader, origin_ns, &inserts] { run(reader, origin_ns, inserts); }) {}
    SummaryThread(const SummaryThread&) = delete;
    SummaryThread& operator=(const SummaryThread&) = delete;
    ~SummaryThread() {
        abandon_.store(true, std::memory_order_relaxed);
        if (thread_.joinable())
            thread_.join();
    }

    // Waits for the thread; rethrows what it threw.
    void finish() {
        thread_.join();
        if (error_)
            std::rethrow_exception(error_);
    }

  private:
    struct Abandoned {};

    void run(profiler::SecondPass& reader, std::int64_t origin_ns, StoreWorker& inserts) {
        try {
            profiler::LaneSummaryStream summaries(reader.lanes(), origin_ns);
            reader.preview([this, &summaries](const Activity& a) {
                go_on();
                summaries.plan(a);
            });
            summaries.set_plan(summaries.take_plan(),
                               [&inserts](std::vector<profiler::RowSummaryLevel>&& levels) {
                                   inserts.write_levels(std::move(levels));
                               });
            reader.preview([this, &summaries](const Activity& a) {
                go_on();
                summaries.add(a);
            });
            summaries.finish();
        } catch (const Abandoned&) {
        } catch (...) {
            error_ = std::current_exception();
        }
    }
    void go_on() const {
        if (abandon_.load(std::memory_order_relaxed))
            throw Abandoned{};
    }

    std::atomic<bool> abandon_{false};
    std::exception_ptr error_;
    std::thread thread_;  // last: starts once everything above exists
};

}  // namespace

void write_streamed_trace(const ResultsDatabase& db, std::int64_t run_id,
                          profiler::StreamedTrace& trace,
                          const std::function<void(const Activity&)>& also) {
    ActivityRows rows(db, run_id);
    LaneSummaryWriter summary_rows(db, run_id);
    profiler::SecondPass second(trace);
    if (second.available()) {
        StoreWorker inserts(rows, summary_rows);
        SummaryThread summaries(second, trace.first_start_ns, inserts);
        profiler::stream_activities(trace, [&](const Activity& a) {
            inserts.add(a);
            if (also)
                also(a);
        });
        summaries.finish();
        inserts.finish();
    } else {
        // The summaries' levels are known once every activity was seen: a first pass
        // counts them (holding nothing), the second builds only what is kept.
        profiler::LaneSummaryStream summaries(trace.header.lanes, trace.first_start_ns);
        profiler::preview_activities(trace, [&summaries](const Activity& a) { summaries.plan(a); });
        StoreWorker inserts(rows, summary_rows);
        summaries.set_plan(summaries.take_plan(),
                           [&inserts](std::vector<profiler::RowSummaryLevel>&& levels) {
                               inserts.write_levels(std::move(levels));
                           });
        profiler::stream_activities(trace, [&](const Activity& a) {
            inserts.add(a);
            summaries.add(a);
            if (also)
                also(a);
        });
        summaries.finish();
        inserts.finish();
    }
    // The header is complete once the activities have passed (the collectives).
    const Trace& header = trace.header;
    write_strings(db, run_id, header);
    write_lanes(db, run_id, header);
    write_metadata(db, run_id, header);
    write_collectives(db, run_id, header);
    write_counters(db, run_id, header);
    write_trace_info(db, run_id, header, rows.rows(), rows.count());
}

}  // namespace trainscope::reports
