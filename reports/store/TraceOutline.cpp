#include "reports/store/TraceOutline.hpp"

#include <algorithm>
#include <string>

#include "reports/store/SqliteError.hpp"

namespace trainscope::reports {

using profiler::Lane;
using profiler::LaneKind;
using profiler::Trace;

namespace detail {

void read_strings(const ResultsDatabase& db, std::int64_t run_id, Trace& trace) {
    auto str = db.prepare("SELECT id, value FROM strings WHERE run_id = ?1 ORDER BY id");
    str.bind(1, run_id);
    while (str.step()) {
        const auto id = trace.strings.intern(str.column_text(1));
        if (static_cast<std::int64_t>(id) != str.column_int64(0)) {
            throw StoreError("trace strings of run " + std::to_string(run_id) + " in '" +
                             db.path().string() + "' are not a dense table; the file is damaged");
        }
    }
}

void read_lanes(const ResultsDatabase& db, std::int64_t run_id, Trace& trace) {
    auto lane = db.prepare(db.schema_version() >= 3
                               ? "SELECT kind, device, stream_or_thread, process, name, rank "
                                 "FROM lanes WHERE run_id = ?1 ORDER BY lane"
                               : "SELECT kind, device, stream_or_thread, process, name, 0 FROM "
                                 "lanes WHERE run_id = ?1 ORDER BY lane");
    lane.bind(1, run_id);
    while (lane.step()) {
        trace.lanes.push_back(Lane{static_cast<LaneKind>(lane.column_int64(0)),
                                   static_cast<std::int32_t>(lane.column_int64(1)),
                                   lane.column_int64(2), lane.column_int64(3), lane.column_text(4),
                                   static_cast<std::int32_t>(lane.column_int64(5))});
    }
}

void read_metadata(const ResultsDatabase& db, std::int64_t run_id, Trace& trace) {
    auto meta = db.prepare("SELECT key, value FROM trace_metadata WHERE run_id = ?1");
    meta.bind(1, run_id);
    while (meta.step())
        trace.metadata[meta.column_text(0)] = meta.column_text(1);
}

}  // namespace detail

std::optional<Trace> load_trace_outline(const ResultsDatabase& db, std::int64_t run_id) {
    // The clock fields only: where the activities lie is load_trace's business.
    auto info = db.prepare(db.schema_version() >= 3
                               ? "SELECT base_ns, capture_begin_ns, capture_end_ns, world_size "
                                 "FROM trace_info WHERE run_id = ?1"
                               : "SELECT base_ns, capture_begin_ns, capture_end_ns, 1 "
                                 "FROM trace_info WHERE run_id = ?1");
    info.bind(1, run_id);
    if (!info.step())
        return std::nullopt;
    Trace trace;
    trace.base_ns = info.column_int64(0);
    trace.capture_begin_ns = info.column_int64(1);
    trace.capture_end_ns = info.column_int64(2);
    trace.world_size = std::max<std::int32_t>(1, static_cast<std::int32_t>(info.column_int64(3)));
    detail::read_strings(db, run_id, trace);
    detail::read_lanes(db, run_id, trace);
    detail::read_metadata(db, run_id, trace);
    return trace;
}

}  // namespace trainscope::reports
