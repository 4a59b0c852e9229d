#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "profiler/trace/TemporaryFile.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Level-of-detail summaries of a trace's rows (a lane at one nesting depth), in the manner
// of Perfetto's mipmaps: for a pyramid of bucket widths (kSummaryBaseWidthNs × 4^level),
// per bucket the activities that start in it. A timeline zoomed out so far that a pixel
// spans many activities paints these instead of visiting the activities; they are made
// when a trace is stored and kept beside it (lane_summaries), so a huge run opens fast.

// The row an activity is painted on: its lane at its nesting depth, streams flat, stacks
// deeper than kMaxSummaryDepth sharing the last row (the GUI's rows are exactly these).
inline constexpr std::uint16_t kMaxSummaryDepth = 63;
std::uint16_t summary_row_depth(const Lane& lane, const Activity& activity);

inline constexpr std::int64_t kSummaryBaseWidthNs = 1000;
// A level is kept for a row only when its buckets hold this many activities on average:
// finer levels would cost more than visiting the activities themselves.
inline constexpr std::int64_t kMinActivitiesPerBucket = 8;

// One bucket [origin + index × width, origin + (index + 1) × width) of a row's level; only
// buckets in which at least one activity starts are kept.
struct SummaryBucket {
    std::int64_t first_start = 0;  // earliest start of the activities starting here
    std::int64_t last_end = 0;     // latest end of them (may lie in a later bucket)
    // Union of all the row's activities (those starting earlier too), clipped to the bucket.
    std::int64_t busy_ns = 0;
    std::int64_t longest_ns = 0;  // duration of the dominant (longest) activity starting here
    std::uint32_t count = 0;      // activities starting here
    StringId name = kNoString;    // the dominant activity's name and kind (its colour)
    ActivityKind kind = ActivityKind::Kernel;

    friend bool operator==(const SummaryBucket&, const SummaryBucket&) = default;
};

// The first buckets of a long row's level, written to a temporary file while the row was
// made (LaneSummaryStream) instead of held: chunks of SummaryBucket, in time order. The
// file is the lane's and goes when its last level does.
struct SpilledBuckets {
    struct Chunk {
        std::int64_t offset = 0;  // bytes into the file
        std::size_t count = 0;    // buckets
    };
    std::shared_ptr<const TemporaryFile> file;
    std::vector<Chunk> chunks;
};

struct RowSummaryLevel {
    LaneId lane = 0;
    std::uint16_t depth = 0;
    int level = 0;
    std::int64_t width_ns = kSummaryBaseWidthNs;
    std::int64_t origin_ns = 0;          // bucket 0 starts here (the trace's first start)
    SpilledBuckets spilled;              // the level's first buckets, when spilled
    std::vector<SummaryBucket> buckets;  // in time order (after the spilled ones)

    [[nodiscard]] std::int64_t index_of(std::int64_t t_ns) const;
    [[nodiscard]] std::int64_t bucket_begin(const SummaryBucket& b) const {
        return origin_ns + index_of(b.first_start) * width_ns;
    }
    [[nodiscard]] std::size_t bucket_count() const;
    // Calls `f` with every bucket in time order, a chunk at a time: the spilled ones read
    // back a chunk at a time, then `buckets`.
    void for_each_chunk(const std::function<void(std::span<const SummaryBucket>)>& f) const;
};

// Every kept level of every row, by (lane, depth, level). Activities may come in any order.
std::vector<RowSummaryLevel> summarize_rows(const Trace& trace);

}  // namespace trainscope::profiler
