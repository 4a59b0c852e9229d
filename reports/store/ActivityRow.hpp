#pragma once

#include "profiler/trace/Activity.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// Which of the activities table's columns a read fills.
enum class ActivityColumns {
    all,
    // What the whole-run analyses use (scan_activities): kind, lane, start, end, name,
    // correlation, graph id, device, an op's bytes and FLOPs and an NVTX range's depth;
    // the rest (launch configuration, copy kind, other kinds' depth and bytes) read as 0.
    // Half the columns to decode for each of millions of rows, which is most of such a
    // read's time.
    analysis,
};

}  // namespace trainscope::reports

namespace trainscope::reports::detail {

// The activities table's columns as load_trace and ActivityReader read them: a SELECT of
// the rows whose rowid lies in [?1, ?2], in rowid order, for the file's schema version.
const char* activity_range_sql(int schema_version, ActivityColumns columns = ActivityColumns::all);
// One row of activity_range_sql's result as an Activity.
profiler::Activity activity_from_row(const Statement& row,
                                     ActivityColumns columns = ActivityColumns::all);

}  // namespace trainscope::reports::detail
