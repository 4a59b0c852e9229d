#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "profiler/analysis/LaneSummary.hpp"

namespace trainscope::profiler {

// The level-of-detail summaries (LaneSummary.hpp) of one row, made from its activities
// as they come in the timeline's order (by start, the longer first, then as stored), one
// at a time: the one implementation behind summarize_rows and the streamed import. Every
// level is built at once, each bucket's busy time from the row's union as it grows, so
// the activities are never held; only buckets of levels that may still be kept are
// (a level is kept when its buckets average kMinActivitiesPerBucket activities).
// Where the rows of a streamed lane write their levels' final buckets (SpilledBuckets):
// one temporary file per lane, made at its first spill; a level writes once it has
// `chunk_buckets` final ones, so that a row holds about that many per level however long.
struct SummarySpill {
    std::size_t chunk_buckets = 0;
    std::shared_ptr<TemporaryFile> file;  // the current lane's
};

class RowSummarizer {
  public:
    // `max_activities`: no more than this many will be added (a level with more buckets
    // than that over kMinActivitiesPerBucket is dropped as soon as it has them).
    RowSummarizer(LaneId lane, std::uint16_t depth, std::int64_t origin_ns,
                  std::int64_t max_activities);
    // Builds only the levels `keep` names (`keep[level]`), as a counting pass over the
    // same row found them to be kept (levels_to_keep): memory is then only what is kept.
    // `spill`, when given, takes the kept levels' final buckets as they accumulate.
    RowSummarizer(LaneId lane, std::uint16_t depth, std::int64_t origin_ns,
                  const std::vector<bool>& keep, SummarySpill* spill = nullptr);

    void add(const Activity& a);
    // Appends the kept levels, finest first.
    void finish(std::vector<RowSummaryLevel>& out) &&;
    // After a pass with max_activities 0 (counting only, nothing held): which levels
    // finish would keep.
    [[nodiscard]] std::vector<bool> levels_to_keep() &&;

  private:
    struct Level {
        RowSummaryLevel kept;  // closed buckets, while the level may be kept
        SummaryBucket open;
        std::int64_t open_index = 0;
        bool has_open = false;
        bool dropped = false;
        std::int64_t buckets = 0;   // closed and open
        std::size_t busy_from = 0;  // first kept bucket the union may still reach
    };
    void close(std::size_t level);
    void close_all();
    void add_busy(std::int64_t begin_ns, std::int64_t end_ns);
    void extend_union(const Activity& a);
    void spill_final(std::int64_t start_ns);

    std::vector<Level> levels_;
    std::int64_t max_activities_;
    SummarySpill* spill_ = nullptr;
    std::vector<std::size_t> spilling_;  // the kept levels, when spill_ is set
    std::int64_t activities_ = 0;
    // The part of the row's union still growing.
    std::int64_t union_begin_ = 0;
    std::int64_t union_end_ = 0;
    bool has_union_ = false;
};

// The summaries of a trace whose activities pass once in Trace::sort's order with their
// depths set (a streamed import): a lane's rows are summarised while its activities pass
// and handed to `sink` when the lane ends, finest level first, rows by depth.
// Two passes over the same activities: the first (planning) counts each row's buckets and
// holds nothing, the second builds only the levels the first found kept, so a lane's
// memory is its kept summaries alone.
class LaneSummaryStream {
  public:
    using Plan = std::map<std::pair<LaneId, std::uint16_t>, std::vector<bool>>;  // row: keep

    // A level writes its final buckets to the lane's temporary file in chunks of this many
    // (384 KiB): the largest lane of a 2 GB Nsight Systems export has 27 M calls.
    static constexpr std::size_t kDefaultSpillChunkBuckets = 8192;

    LaneSummaryStream(std::span<const Lane> lanes, std::int64_t origin_ns,
                      std::size_t spill_chunk_buckets = kDefaultSpillChunkBuckets);
    // Its rows point at its spill (SummarySpill): it stays where it was made.
    LaneSummaryStream(const LaneSummaryStream&) = delete;
    LaneSummaryStream& operator=(const LaneSummaryStream&) = delete;
    // The first pass; then take_plan.
    void plan(const Activity& a);
    [[nodiscard]] Plan take_plan();
    // The second pass, after set_plan: `sink` gets each lane's levels when it ends.
    void set_plan(Plan plan, std::function<void(std::vector<RowSummaryLevel>&&)> sink);
    void add(const Activity& a);
    void finish();

  private:
    void end_lane();
    void enter(const Activity& a);

    std::span<const Lane> lanes_;
    std::int64_t origin_ns_;
    bool planning_ = true;
    Plan plan_;
    std::function<void(std::vector<RowSummaryLevel>&&)> sink_;
    LaneId lane_ = 0;
    bool in_lane_ = false;
    SummarySpill spill_;
    std::array<std::optional<RowSummarizer>, kMaxSummaryDepth + 1> rows_;
};

}  // namespace trainscope::profiler
