#include "profiler/analysis/RowSummarizer.hpp"

#include <algorithm>
#include <limits>

namespace trainscope::profiler {

RowSummarizer::RowSummarizer(LaneId lane, std::uint16_t depth, std::int64_t origin_ns,
                             std::int64_t max_activities)
    : max_activities_(max_activities) {
    // Each level's buckets are four of the finer level's; the pyramid ends at the first
    // level wider than an eighth of int64's range (or, at finish, at one bucket).
    std::int64_t width = kSummaryBaseWidthNs;
    for (int level = 0;; ++level) {
        Level l;
        l.kept.lane = lane;
        l.kept.depth = depth;
        l.kept.level = level;
        l.kept.width_ns = width;
        l.kept.origin_ns = origin_ns;
        levels_.push_back(std::move(l));
        if (width > std::numeric_limits<std::int64_t>::max() / 8)
            break;
        width *= 4;
    }
}

RowSummarizer::RowSummarizer(LaneId lane, std::uint16_t depth, std::int64_t origin_ns,
                             const std::vector<bool>& keep, SummarySpill* spill)
    : RowSummarizer(lane, depth, origin_ns, std::numeric_limits<std::int64_t>::max()) {
    spill_ = spill != nullptr && spill->chunk_buckets > 0 ? spill : nullptr;
    for (std::size_t i = 0; i < levels_.size(); ++i) {
        levels_[i].dropped = i >= keep.size() || !keep[i];
        if (spill_ != nullptr && !levels_[i].dropped)
            spilling_.push_back(i);
    }
}

void RowSummarizer::add(const Activity& a) {
    ++activities_;
    const std::int64_t duration = a.end_ns - a.start_ns;
    // Levels whose bucket changes with this activity: a prefix, since a coarser bucket
    // holds whole finer ones.
    std::size_t changed = 0;
    for (; changed < levels_.size(); ++changed) {
        const Level& l = levels_[changed];
        if (l.has_open && l.kept.index_of(a.start_ns) == l.open_index)
            break;
    }
    for (std::size_t i = 0; i < changed; ++i) {
        if (levels_[i].has_open)
            close(i);
    }
    for (std::size_t i = 0; i < changed; ++i) {
        Level& l = levels_[i];
        l.open_index = l.kept.index_of(a.start_ns);
        l.has_open = true;
        ++l.buckets;
        // A coarser bucket gathers its finer ones as they close; the finest starts from
        // its first activity.
        l.open = i == 0 ? SummaryBucket{a.start_ns, a.end_ns, 0, duration, 0, a.name, a.kind}
                        : SummaryBucket{a.start_ns,
                                        std::numeric_limits<std::int64_t>::min(),
                                        0,
                                        std::numeric_limits<std::int64_t>::min(),
                                        0,
                                        kNoString,
                                        ActivityKind::Kernel};
    }
    SummaryBucket& b = levels_[0].open;
    ++b.count;
    b.last_end = std::max(b.last_end, a.end_ns);
    if (duration > b.longest_ns) {
        b.longest_ns = duration;
        b.name = a.name;
        b.kind = a.kind;
    }
    if (a.end_ns > a.start_ns)
        extend_union(a);
    // Buckets become final only as buckets close, checked then rather than per activity.
    if (spill_ != nullptr && changed > 0)
        spill_final(a.start_ns);
}

// The union, as merge_intervals makes it: empty intervals left out, touching ones joined.
// A finished part is added to the buckets now that all of them exist.
void RowSummarizer::extend_union(const Activity& a) {
    if (has_union_ && a.start_ns <= union_end_) {
        union_end_ = std::max(union_end_, a.end_ns);
        return;
    }
    if (has_union_)
        add_busy(union_begin_, union_end_);
    union_begin_ = a.start_ns;
    union_end_ = a.end_ns;
    has_union_ = true;
}

// Buckets before a level's busy_from are final: the union's later parts start after them.
void RowSummarizer::spill_final(std::int64_t start_ns) {
    bool long_open = false;
    for (const std::size_t i : spilling_) {
        const Level& l = levels_[i];
        long_open |= l.kept.buckets.size() - l.busy_from >= spill_->chunk_buckets;
    }
    // A row busy without a gap would add its union only at the end, every bucket waiting
    // for it: the union's part before this start is final (no later activity starts
    // earlier), and busy time adds up the same in pieces.
    if (long_open && has_union_ && union_begin_ < start_ns) {
        const std::int64_t done = std::min(start_ns, union_end_);
        add_busy(union_begin_, done);
        union_begin_ = done;
    }
    for (const std::size_t i : spilling_) {
        Level& l = levels_[i];
        if (l.busy_from < spill_->chunk_buckets)
            continue;
        if (!spill_->file)
            spill_->file = std::make_shared<TemporaryFile>("the lane summaries");
        auto& kept = l.kept.buckets;
        const auto final_buckets = std::span(kept).first(l.busy_from);
        const std::int64_t at = spill_->file->append(std::as_bytes(final_buckets));
        l.kept.spilled.file = spill_->file;
        l.kept.spilled.chunks.push_back({at, final_buckets.size()});
        kept.erase(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(l.busy_from));
        l.busy_from = 0;
    }
}

void RowSummarizer::close(std::size_t level) {
    Level& l = levels_[level];
    const SummaryBucket& child = l.open;
    if (level + 1 < levels_.size()) {
        SummaryBucket& up = levels_[level + 1].open;
        up.count += child.count;
        up.last_end = std::max(up.last_end, child.last_end);
        if (child.longest_ns > up.longest_ns) {  // ties: the earlier one stays
            up.longest_ns = child.longest_ns;
            up.name = child.name;
            up.kind = child.kind;
        }
    }
    l.has_open = false;
    if (l.dropped)
        return;
    l.kept.buckets.push_back(child);
    if (static_cast<std::int64_t>(l.kept.buckets.size()) * kMinActivitiesPerBucket >
        max_activities_) {
        l.dropped = true;
        l.kept.buckets = {};
    }
}

void RowSummarizer::add_busy(std::int64_t begin_ns, std::int64_t end_ns) {
    const auto overlap = [begin_ns, end_ns](std::int64_t b0, std::int64_t b1) {
        return std::max<std::int64_t>(0, std::min(end_ns, b1) - std::max(begin_ns, b0));
    };
    for (Level& l : levels_) {
        if (l.dropped)
            continue;
        const std::int64_t width = l.kept.width_ns;
        auto& kept = l.kept.buckets;
        while (l.busy_from < kept.size() &&
               l.kept.bucket_begin(kept[l.busy_from]) + width <= begin_ns)
            ++l.busy_from;
        for (std::size_t j = l.busy_from; j < kept.size(); ++j) {
            const std::int64_t b0 = l.kept.bucket_begin(kept[j]);
            if (b0 >= end_ns)
                break;
            kept[j].busy_ns += overlap(b0, b0 + width);
        }
        if (l.has_open) {
            const std::int64_t b0 = l.kept.origin_ns + l.open_index * width;
            l.open.busy_ns += overlap(b0, b0 + width);
        }
    }
}

void RowSummarizer::close_all() {
    if (has_union_)
        add_busy(union_begin_, union_end_);
    has_union_ = false;
    for (std::size_t i = 0; i < levels_.size(); ++i) {
        if (levels_[i].has_open)
            close(i);
    }
}

void RowSummarizer::finish(std::vector<RowSummaryLevel>& out) && {
    close_all();
    for (Level& l : levels_) {
        if (l.buckets * kMinActivitiesPerBucket <= activities_)
            out.push_back(std::move(l.kept));
        if (l.buckets <= 1)
            break;
    }
}

std::vector<bool> RowSummarizer::levels_to_keep() && {
    close_all();
    std::vector<bool> keep(levels_.size(), false);
    for (std::size_t i = 0; i < levels_.size(); ++i) {
        keep[i] = levels_[i].buckets * kMinActivitiesPerBucket <= activities_;
        if (levels_[i].buckets <= 1)
            break;
    }
    return keep;
}

LaneSummaryStream::LaneSummaryStream(std::span<const Lane> lanes, std::int64_t origin_ns,
                                     std::size_t spill_chunk_buckets)
    : lanes_(lanes), origin_ns_(origin_ns) {
    spill_.chunk_buckets = spill_chunk_buckets;
}

void LaneSummaryStream::enter(const Activity& a) {
    if (in_lane_ && a.lane != lane_)
        end_lane();
    lane_ = a.lane;
    in_lane_ = true;
    const std::uint16_t depth = summary_row_depth(lanes_[a.lane], a);
    auto& row = rows_[depth];
    if (!row) {
        if (planning_)
            row.emplace(a.lane, depth, origin_ns_, 0);  // counts, holds nothing
        else
            row.emplace(a.lane, depth, origin_ns_, plan_[{a.lane, depth}], &spill_);
    }
    row->add(a);
}

void LaneSummaryStream::plan(const Activity& a) {
    enter(a);
}

LaneSummaryStream::Plan LaneSummaryStream::take_plan() {
    if (in_lane_)
        end_lane();
    return std::move(plan_);
}

void LaneSummaryStream::set_plan(Plan plan,
                                 std::function<void(std::vector<RowSummaryLevel>&&)> sink) {
    plan_ = std::move(plan);
    sink_ = std::move(sink);
    planning_ = false;
}

void LaneSummaryStream::add(const Activity& a) {
    enter(a);
}

void LaneSummaryStream::end_lane() {
    std::vector<RowSummaryLevel> levels;
    for (std::size_t depth = 0; depth < rows_.size(); ++depth) {
        auto& row = rows_[depth];
        if (!row)
            continue;
        if (planning_)
            plan_[{lane_, static_cast<std::uint16_t>(depth)}] = std::move(*row).levels_to_keep();
        else
            std::move(*row).finish(levels);
        row.reset();
    }
    in_lane_ = false;
    spill_.file.reset();  // the next lane's buckets go to a file of its own
    if (!levels.empty())
        sink_(std::move(levels));
}

void LaneSummaryStream::finish() {
    if (in_lane_)
        end_lane();
}

}  // namespace trainscope::profiler
