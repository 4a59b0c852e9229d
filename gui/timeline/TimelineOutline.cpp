// TimelineData's outline (the first frame of a run whose events are still loading) and its
// memory accounting.
#include <algorithm>
#include <limits>
#include <map>

#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimestampPrecision.hpp"

namespace trainscope::gui {

std::shared_ptr<const TimelineData> TimelineData::buildOutline(
    profiler::Trace outline, const std::vector<profiler::RowSummaryLevel>& summaries) {
    auto data = std::make_shared<TimelineData>();
    data->partial_ = true;
    data->trace_ = std::move(outline);
    data->trace_.activities.clear();
    const profiler::Trace& t = data->trace_;
    data->internNames();

    // What the activities would tell, from the summaries: the extent of the trace, how deep
    // each lane's stack is, whether it is a CPU-backend trace (no GPU stream, host ops) and
    // the categories of the names that colour the buckets.
    std::int64_t begin = std::numeric_limits<std::int64_t>::max();
    std::int64_t end = std::numeric_limits<std::int64_t>::min();
    std::vector<std::size_t> depths(t.lanes.size(), 0);
    bool host_ops = false;
    for (const profiler::RowSummaryLevel& level : summaries) {
        if (level.lane >= t.lanes.size() || level.buckets.empty())
            continue;
        depths[level.lane] = std::max<std::size_t>(depths[level.lane], level.depth + 1U);
        begin = std::min(begin, level.buckets.front().first_start);
        for (const profiler::SummaryBucket& b : level.buckets) {
            end = std::max(end, b.last_end);
            host_ops = host_ops || b.kind == profiler::ActivityKind::HostOp;
        }
    }
    const bool gpu = std::any_of(t.lanes.begin(), t.lanes.end(), [](const profiler::Lane& lane) {
        return lane.kind == profiler::LaneKind::GpuStream;
    });
    data->host_op_trace_ = host_ops && !gpu;
    for (const profiler::RowSummaryLevel& level : summaries) {
        if (level.lane >= t.lanes.size())
            continue;
        for (const profiler::SummaryBucket& b : level.buckets) {
            if (b.name >= t.strings.size())
                continue;  // attachSummaries leaves such a level out
            const auto key = std::make_pair(static_cast<int>(b.kind), b.name);
            if (data->category_of_.count(key) == 0)
                data->category_of_.emplace(
                    key, classify(b.kind, t.strings.at(b.name), data->host_op_trace_));
            if (data->host_op_trace_ && b.kind == profiler::ActivityKind::HostOp)
                data->op_threads_.insert(
                    {t.lanes[level.lane].process, t.lanes[level.lane].stream_or_thread});
        }
    }
    data->labelNames();
    if (begin > end) {
        begin = 0;
        end = 1;
    }
    // As rebaseAbsoluteTimes does for the full trace (its first start may lie a little
    // earlier, in a row too sparse to be summarized: TimelineData::rebasedBy tells).
    if (begin > kRebaseAbove) {
        data->rebased_by_ = begin;
        data->trace_.base_ns += begin;
        end -= begin;
        begin = 0;
    }
    data->begin_ns_ = begin;
    data->end_ns_ = std::max(end, begin + 1);
    // The trace's precision as build finds it from the activities, here from the extents
    // the buckets keep (their first starts and last ends are activities' times).
    TimestampPrecision precision;
    for (const auto& level : summaries) {
        for (const auto& b : level.buckets)
            precision.see(b.first_start, b.last_end);
    }
    data->resolution_ns_ = precision.resolution_ns();

    // Every lane shows at least its first row, so the labels are all there from the start.
    data->lane_first_row_.assign(t.lanes.size(), std::numeric_limits<std::size_t>::max());
    for (const profiler::LaneId lane : data->laneOrder())
        data->addRows(lane, std::max<std::size_t>(depths[lane], 1));
    for (TimelineRow& row : data->rows_)
        row.events_loaded = false;
    data->placeRows();
    data->attachSummaries(summaries);
    return data;
}

TimelineData::MemoryUse TimelineData::memoryUse() const {
    MemoryUse m;
    m.activities = trace_.activities.capacity() * sizeof(profiler::Activity);
    for (const TimelineRow& row : rows_) {
        m.events += sizeof(TimelineRow) + row.events.capacity() * sizeof(TimelineEvent) +
                    row.max_end.capacity() * sizeof(std::int64_t);
        for (const LodLevel& level : row.lod)
            m.summaries += sizeof(LodLevel) + level.buckets.capacity() * sizeof(LodBucket) +
                           level.max_end.capacity() * sizeof(std::int64_t);
    }
    // A std::string and its index entry in the trace's table, the QString name and label
    // (UTF-16 and their headers): estimates, the allocator's rounding left out.
    for (std::size_t i = 0; i < names_.size(); ++i) {
        const auto length = static_cast<std::size_t>(names_[i].size());
        m.names += sizeof(std::string) + length + 48 + 2 * (sizeof(QString) + 2 * length + 16);
    }
    m.indexes = categories_.capacity() * sizeof(Category) +
                gpu_by_start_.capacity() * sizeof(std::uint32_t) +
                launch_of_work_.capacity() * sizeof(LaunchPair) +
                work_of_launch_.capacity() * sizeof(LaunchPair) +
                lane_first_row_.capacity() * sizeof(std::size_t) +
                where_.capacity() * sizeof(EventRef) +
                kinds_.capacity() * sizeof(profiler::ActivityKind);
    for (const DeviceBusy& device : busy_)
        m.busy += device.timeline.memory_bytes();
    m.busy += compute_busy_.memory_bytes();
    return m;
}

}  // namespace trainscope::gui
