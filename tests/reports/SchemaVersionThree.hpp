#pragma once

#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::testing {

// Takes a freshly written file back to what version 3 had: every part version 4 added
// (level-of-detail summaries, memory peaks, op FLOPs) dropped and the version set to 3,
// as a file written by an older trainscope is. Upgrade tests start from it.
inline void drop_version_four(reports::ResultsDatabase& db) {
    db.exec("DROP TABLE lane_summaries");
    db.exec("DROP TABLE lane_summary_runs");
    db.exec("DROP TABLE memory_peak_classes");
    db.exec("DROP TABLE memory_peaks");
    db.exec("ALTER TABLE activities DROP COLUMN flops");
    db.exec("UPDATE schema_version SET version = 3");
}

}  // namespace trainscope::testing
