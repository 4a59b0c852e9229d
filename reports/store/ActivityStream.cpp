#include "reports/store/ActivityStream.hpp"

#include <string>

#include "reports/store/ActivityRow.hpp"
#include "reports/store/SqliteError.hpp"

namespace trainscope::reports {

ActivityStream::ActivityStream(const ResultsDatabase& db, std::int64_t run_id,
                               const profiler::Trace& header)
    : db_(db),
      run_id_(run_id),
      header_(header),
      rows_(db.prepare(detail::activity_range_sql(db.schema_version()))) {
    auto info = db.prepare(
        "SELECT first_activity, last_activity, activity_count FROM trace_info WHERE run_id = ?1");
    info.bind(1, run_id);
    if (!info.step()) {
        throw StoreError("run " + std::to_string(run_id) + " in '" + db.path().string() +
                         "' has no trace");
    }
    rows_.bind(1, info.column_int64(0)).bind(2, info.column_int64(1));
    count_ = info.column_int64(2);
}

bool ActivityStream::next(profiler::Activity& out) {
    if (!rows_.step())
        return false;
    out = detail::activity_from_row(rows_);
    if (out.name >= header_.strings.size() || out.lane >= header_.lanes.size()) {
        throw StoreError("trace of run " + std::to_string(run_id_) + " in '" + db_.path().string() +
                         "' refers to a missing name or lane; the file is damaged");
    }
    return true;
}

}  // namespace trainscope::reports
