#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "profiler/analysis/LaneSummary.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// One bucket as stored in lane_summaries.buckets: first_start, last_end, busy_ns,
// longest_ns (int64), count, name (uint32), kind (uint8), little-endian, packed.
inline constexpr std::size_t kLaneSummaryRecordBytes = 8 * 4 + 4 * 2 + 1;

// Writes a run's level-of-detail summaries as they are made (a streamed trace, lane by
// lane): the run's row when made, then any number of levels.
class LaneSummaryWriter {
  public:
    LaneSummaryWriter(const ResultsDatabase& db, std::int64_t run_id);
    void write(const std::vector<profiler::RowSummaryLevel>& levels);

  private:
    std::int64_t run_id_;
    Statement insert_;
};

// Writes a run's level-of-detail summaries (profiler::summarize_rows); write_trace calls it
// inside the run's transaction.
void write_lane_summaries(const ResultsDatabase& db, std::int64_t run_id,
                          const std::vector<profiler::RowSummaryLevel>& levels);

// The summaries stored with a run's trace, by (lane, depth, level); nullopt when the trace
// was stored without them (a file before schema 4): the caller makes them from the trace.
// StoreError for a damaged record.
std::optional<std::vector<profiler::RowSummaryLevel>> load_lane_summaries(const ResultsDatabase& db,
                                                                          std::int64_t run_id);

}  // namespace trainscope::reports
