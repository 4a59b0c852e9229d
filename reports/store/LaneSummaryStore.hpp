#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "profiler/analysis/LaneSummary.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// One bucket as stored in lane_summaries.buckets: first_start, last_end, busy_ns,
// longest_ns (int64), count, name (uint32), kind (uint8), little-endian, packed.
inline constexpr std::size_t kLaneSummaryRecordBytes = 8 * 4 + 4 * 2 + 1;

// How a run's lane_summaries.buckets are written (lane_summary_runs.encoding). Packed
// records are 56 % zero bytes and their high bytes repeat from bucket to bucket: byte
// position by byte position, then deflated, they take a quarter of the space (2 of the
// 5.6 bytes per activity they took raw, measured on a 1 GB Kineto trace).
enum class LaneSummaryEncoding : std::int64_t {
    Packed = 0,           // the records one after another (schema 4 and 5)
    ShuffledDeflate = 1,  // byte i of every record, for i = 0..40, then zlib's deflate
};

// The packed records of `bucket_count` buckets from a stored blob; StoreError naming
// `what` when the blob does not hold exactly that many (a damaged file).
std::vector<std::byte> unpack_lane_summary_blob(LaneSummaryEncoding encoding,
                                                std::span<const std::byte> blob,
                                                std::size_t bucket_count, const std::string& what);

// Writes a run's level-of-detail summaries as they are made (a streamed trace, lane by
// lane): the run's row when made, then any number of levels. Inside a transaction (as
// write_trace and the streamed store do): a spilled level's row is inserted and then
// filled in place, and only a transaction makes the two one change.
class LaneSummaryWriter {
  public:
    LaneSummaryWriter(const ResultsDatabase& db, std::int64_t run_id);
    void write(const std::vector<profiler::RowSummaryLevel>& levels);

  private:
    void write_spilled(const profiler::RowSummaryLevel& level);
    Statement& bind_level(const profiler::RowSummaryLevel& level);

    const ResultsDatabase& db_;
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
