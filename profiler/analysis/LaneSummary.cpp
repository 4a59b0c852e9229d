#include "profiler/analysis/LaneSummary.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "profiler/analysis/IntervalSet.hpp"

namespace trainscope::profiler {

std::uint16_t summary_row_depth(const Lane& lane, const Activity& activity) {
    // Streams do not nest (the stored depth of GPU work means nothing to the timeline).
    if (lane.kind == LaneKind::GpuStream)
        return 0;
    return std::min(activity.depth, kMaxSummaryDepth);
}

std::int64_t RowSummaryLevel::index_of(std::int64_t t_ns) const {
    const std::int64_t d = t_ns - origin_ns;
    return d >= 0 ? d / width_ns : -((-d + width_ns - 1) / width_ns);
}

namespace {

// The union of a row's activities with running sums: covered time before any t in one
// binary search, so a bucket's busy time costs two.
class Coverage {
  public:
    explicit Coverage(std::vector<Interval> merged) : merged_(std::move(merged)) {
        before_.reserve(merged_.size());
        std::int64_t total = 0;
        for (const Interval& iv : merged_) {
            before_.push_back(total);
            total += iv.length_ns();
        }
    }
    [[nodiscard]] std::int64_t busy(std::int64_t t0, std::int64_t t1) const {
        return covered_before(t1) - covered_before(t0);
    }

  private:
    [[nodiscard]] std::int64_t covered_before(std::int64_t t) const {
        const auto it =
            std::upper_bound(merged_.begin(), merged_.end(), t,
                             [](std::int64_t v, const Interval& iv) { return v < iv.begin_ns; });
        if (it == merged_.begin())
            return 0;
        const auto i = static_cast<std::size_t>(it - merged_.begin()) - 1;
        return before_[i] + std::min(t, merged_[i].end_ns) - merged_[i].begin_ns;
    }
    std::vector<Interval> merged_;
    std::vector<std::int64_t> before_;
};

// Buckets of every level of one row, finest first; each level is the previous one's
// buckets taken four at a time (the busy time is measured afresh: an empty child bucket
// can still be covered by an activity that started earlier).
void summarize_row(const Trace& trace, const std::vector<std::uint32_t>& order, std::size_t first,
                   std::size_t last, LaneId lane, std::uint16_t depth, std::int64_t origin,
                   std::vector<RowSummaryLevel>& out) {
    std::vector<Interval> intervals;
    intervals.reserve(last - first);
    for (std::size_t i = first; i < last; ++i) {
        const Activity& a = trace.activities[order[i]];
        intervals.push_back({a.start_ns, a.end_ns});
    }
    const Coverage coverage(merge_intervals(std::move(intervals)));
    const auto row_count = static_cast<std::int64_t>(last - first);

    RowSummaryLevel level;
    level.lane = lane;
    level.depth = depth;
    level.origin_ns = origin;
    for (std::size_t i = first; i < last; ++i) {
        const Activity& a = trace.activities[order[i]];
        const std::int64_t duration = a.end_ns - a.start_ns;
        if (level.buckets.empty() ||
            level.index_of(a.start_ns) != level.index_of(level.buckets.back().first_start)) {
            level.buckets.push_back({a.start_ns, a.end_ns, 0, duration, 0, a.name, a.kind});
        }
        SummaryBucket& b = level.buckets.back();
        ++b.count;
        b.last_end = std::max(b.last_end, a.end_ns);
        if (duration > b.longest_ns) {
            b.longest_ns = duration;
            b.name = a.name;
            b.kind = a.kind;
        }
    }
    for (;;) {
        const auto buckets = static_cast<std::int64_t>(level.buckets.size());
        if (buckets * kMinActivitiesPerBucket <= row_count) {
            RowSummaryLevel kept = level;
            for (SummaryBucket& b : kept.buckets) {
                const std::int64_t b0 = kept.bucket_begin(b);
                b.busy_ns = coverage.busy(b0, b0 + kept.width_ns);
            }
            out.push_back(std::move(kept));
        }
        if (buckets <= 1 || level.width_ns > std::numeric_limits<std::int64_t>::max() / 8)
            break;
        RowSummaryLevel up;
        up.lane = lane;
        up.depth = depth;
        up.level = level.level + 1;
        up.width_ns = level.width_ns * 4;
        up.origin_ns = origin;
        for (const SummaryBucket& child : level.buckets) {
            if (up.buckets.empty() ||
                up.index_of(child.first_start) != up.index_of(up.buckets.back().first_start)) {
                up.buckets.push_back(child);
                continue;
            }
            SummaryBucket& b = up.buckets.back();
            b.count += child.count;
            b.last_end = std::max(b.last_end, child.last_end);
            if (child.longest_ns > b.longest_ns) {  // ties: the earlier one stays
                b.longest_ns = child.longest_ns;
                b.name = child.name;
                b.kind = child.kind;
            }
        }
        level = std::move(up);
    }
}

}  // namespace

std::vector<RowSummaryLevel> summarize_rows(const Trace& trace) {
    std::vector<RowSummaryLevel> out;
    const auto& acts = trace.activities;
    if (acts.empty())
        return out;
    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    for (const Activity& a : acts)
        origin = std::min(origin, a.start_ns);
    // The activities of each row (lane × depth, a slot of kMaxSummaryDepth + 1 per lane) by
    // a counting sort that keeps their stored order; a row is then sorted into the
    // timeline's order (by start, the longer first, then as stored) only if it is not in it
    // already, as a trace sorted by Trace::sort is.
    constexpr std::size_t kSlots = kMaxSummaryDepth + 1;
    const auto slot_of = [&](const Activity& a) {
        return static_cast<std::size_t>(a.lane) * kSlots +
               summary_row_depth(trace.lanes.at(a.lane), a);
    };
    std::vector<std::uint32_t> row_begin(trace.lanes.size() * kSlots + 1, 0);
    for (const Activity& a : acts)
        ++row_begin[slot_of(a) + 1];
    for (std::size_t i = 1; i < row_begin.size(); ++i)
        row_begin[i] += row_begin[i - 1];
    std::vector<std::uint32_t> order(acts.size());
    {
        std::vector<std::uint32_t> next(row_begin.begin(), row_begin.end() - 1);
        for (std::size_t i = 0; i < acts.size(); ++i)
            order[next[slot_of(acts[i])]++] = static_cast<std::uint32_t>(i);
    }
    const auto before = [&](std::uint32_t x, std::uint32_t y) {
        const Activity& a = acts[x];
        const Activity& b = acts[y];
        return std::make_tuple(a.start_ns, -a.end_ns, x) <
               std::make_tuple(b.start_ns, -b.end_ns, y);
    };
    for (std::size_t slot = 0; slot + 1 < row_begin.size(); ++slot) {
        const std::size_t first = row_begin[slot];
        const std::size_t last = row_begin[slot + 1];
        if (first == last)
            continue;
        const auto b = order.begin() + static_cast<std::ptrdiff_t>(first);
        const auto e = order.begin() + static_cast<std::ptrdiff_t>(last);
        if (!std::is_sorted(b, e, before))
            std::sort(b, e, before);
        summarize_row(trace, order, first, last, static_cast<LaneId>(slot / kSlots),
                      static_cast<std::uint16_t>(slot % kSlots), origin, out);
    }
    return out;
}

}  // namespace trainscope::profiler
