#include "profiler/analysis/LaneSummary.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "profiler/analysis/RowSummarizer.hpp"

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

std::size_t RowSummaryLevel::bucket_count() const {
    std::size_t n = buckets.size();
    for (const SpilledBuckets::Chunk& c : spilled.chunks)
        n += c.count;
    return n;
}

void RowSummaryLevel::for_each_chunk(
    const std::function<void(std::span<const SummaryBucket>)>& f) const {
    std::vector<SummaryBucket> chunk;
    for (const SpilledBuckets::Chunk& c : spilled.chunks) {
        chunk.resize(c.count);
        spilled.file->read(c.offset, std::as_writable_bytes(std::span(chunk)));
        f(chunk);
    }
    if (!buckets.empty())
        f(buckets);
}

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
        RowSummarizer row(static_cast<LaneId>(slot / kSlots),
                          static_cast<std::uint16_t>(slot % kSlots), origin,
                          static_cast<std::int64_t>(last - first));
        for (std::size_t i = first; i < last; ++i)
            row.add(acts[order[i]]);
        std::move(row).finish(out);
    }
    return out;
}

}  // namespace trainscope::profiler
