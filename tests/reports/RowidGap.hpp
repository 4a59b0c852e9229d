#pragma once

#include <filesystem>

#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::testing {

// Moves the file's last activity past every row (its run's last_activity with it), so
// that the run's rowids have a gap: ActivityReader cannot index it, and the readers that
// need it fall back to the whole read (load_trace), whose rowid range still holds that
// run's rows alone.
inline void leave_a_rowid_gap(const std::filesystem::path& file) {
    const reports::ResultsDatabase db(file, reports::OpenMode::CreateOrOpen);
    db.exec(
        "UPDATE trace_info SET last_activity = (SELECT max(rowid) + 10 FROM activities) "
        "WHERE last_activity = (SELECT max(rowid) FROM activities)");
    db.exec(
        "UPDATE activities SET rowid = (SELECT max(rowid) + 10 FROM activities) "
        "WHERE rowid = (SELECT max(rowid) FROM activities)");
}

}  // namespace trainscope::testing
