#pragma once

#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/Schema.hpp"

namespace trainscope::testing {

// Takes a freshly written file back to what version 4 had: counter series without their
// rank, and one memory peak per run (rank 0's, in the version-4 tables). Upgrade tests
// start from it.
inline void drop_version_five(reports::ResultsDatabase& db) {
    db.exec("ALTER TABLE counter_series DROP COLUMN rank");
    db.exec("ALTER TABLE memory_peaks RENAME TO memory_peaks_v5");
    db.exec("ALTER TABLE memory_peak_classes RENAME TO memory_peak_classes_v5");
    db.exec(reports::detail::kMemoryPeaksSql);
    db.exec(
        "INSERT INTO memory_peaks (run_id, t_ns, phase, op) SELECT run_id, t_ns, phase, op FROM "
        "memory_peaks_v5 WHERE rank = 0");
    db.exec(
        "INSERT INTO memory_peak_classes (run_id, position, class, bytes_at_peak, max_bytes) "
        "SELECT run_id, position, class, bytes_at_peak, max_bytes FROM memory_peak_classes_v5 "
        "WHERE rank = 0");
    db.exec("DROP TABLE memory_peaks_v5");
    db.exec("DROP TABLE memory_peak_classes_v5");
    db.exec("UPDATE schema_version SET version = 4");
}

// Takes a freshly written file back to what version 3 had: every part versions 4 and 5
// added (level-of-detail summaries, memory peaks, op FLOPs, series ranks) dropped and the
// version set to 3, as a file written by an older trainscope is. Upgrade tests start from
// it.
inline void drop_version_four(reports::ResultsDatabase& db) {
    drop_version_five(db);
    db.exec("DROP TABLE lane_summaries");
    db.exec("DROP TABLE lane_summary_runs");
    db.exec("DROP TABLE memory_peak_classes");
    db.exec("DROP TABLE memory_peaks");
    db.exec("ALTER TABLE activities DROP COLUMN flops");
    db.exec("UPDATE schema_version SET version = 3");
}

}  // namespace trainscope::testing
