#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <span>
#include <vector>

#include "profiler/trace/Activity.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// Reads a stored run's activities one by one, by their index in the trace (the order
// load_trace gives them: a run's activities are contiguous rowids, so index i is rowid
// first + i, found in the table's own B-tree without an index). What a viewer holding
// only compact events reads when it needs the rest of a record: a tooltip, the activities
// of a window for the profiler's analyses. Opens its own read-only connection; safe to
// call from several threads (one at a time).
class ActivityReader {
  public:
    // StoreError when the run has no trace or its rowids are not contiguous (a file this
    // reader cannot index: load the trace whole instead); SqliteError for an unreadable file.
    ActivityReader(const std::filesystem::path& database_path, std::int64_t run_id);

    [[nodiscard]] std::size_t size() const { return count_; }
    [[nodiscard]] std::int64_t runId() const { return run_id_; }
    [[nodiscard]] const std::filesystem::path& path() const { return db_.path(); }

    // The activity at `index` as load_trace reads it. StoreError past the end.
    [[nodiscard]] profiler::Activity read(std::size_t index) const;
    // The activities at `indexes` (ascending), in that order: runs of consecutive indexes
    // are read as one rowid range.
    [[nodiscard]] std::vector<profiler::Activity> read(
        std::span<const std::uint32_t> indexes) const;

  private:
    ResultsDatabase db_;
    std::int64_t run_id_ = 0;
    std::int64_t first_rowid_ = 0;
    std::size_t count_ = 0;
    mutable std::mutex mutex_;  // the statement is reused
    mutable Statement range_;
};

}  // namespace trainscope::reports
