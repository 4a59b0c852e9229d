#pragma once

#include <cstdint>
#include <vector>

#include "reports/store/LaneSummaryStore.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/Schema.hpp"

namespace trainscope::testing {

// Takes a freshly written file back to what version 5 had: the level-of-detail summaries
// packed, record after record, and no encoding column.
inline void drop_version_six(reports::ResultsDatabase& db) {
    struct Level {
        std::int64_t rowid;
        std::vector<std::byte> packed;
    };
    std::vector<Level> levels;
    auto read = db.prepare(
        "SELECT s.rowid, s.bucket_count, s.buckets, r.encoding FROM lane_summaries s JOIN "
        "lane_summary_runs r USING (run_id)");
    while (read.step())
        levels.push_back({read.column_int64(0),
                          reports::unpack_lane_summary_blob(
                              static_cast<reports::LaneSummaryEncoding>(read.column_int64(3)),
                              read.column_blob(2), static_cast<std::size_t>(read.column_int64(1)),
                              "a test file")});
    auto write = db.prepare("UPDATE lane_summaries SET buckets = ?2 WHERE rowid = ?1");
    for (const Level& l : levels) {
        write.bind(1, l.rowid).bind_blob(2, l.packed).run();
    }
    db.exec("ALTER TABLE lane_summary_runs DROP COLUMN encoding");
    db.exec("UPDATE schema_version SET version = 5");
}

// Takes a freshly written file back to what version 4 had: counter series without their
// rank, and one memory peak per run (rank 0's, in the version-4 tables). Upgrade tests
// start from it.
inline void drop_version_five(reports::ResultsDatabase& db) {
    drop_version_six(db);
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
// added (level-of-detail summaries, memory peaks, op FLOPs, series ranks; and what 6
// changed in them) dropped and the
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
