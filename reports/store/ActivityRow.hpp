#pragma once

#include "profiler/trace/Activity.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports::detail {

// The activities table's columns as load_trace and ActivityReader read them: a SELECT of
// the rows whose rowid lies in [?1, ?2], in rowid order, for the file's schema version.
const char* activity_range_sql(int schema_version);
// One row of activity_range_sql's result as an Activity.
profiler::Activity activity_from_row(const Statement& row);

}  // namespace trainscope::reports::detail
