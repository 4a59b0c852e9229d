#include "gui/timeline/TimelineStream.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/trace/TraceOrder.hpp"

namespace trainscope::gui {

std::shared_ptr<TimelineData> TimelineStream::withHeader(profiler::Trace header) {
    auto data = std::make_shared<TimelineData>();
    header.activities.clear();
    data->trace_ = std::move(header);
    return data;
}

TimelineStream::TimelineStream(profiler::Trace header, std::size_t count,
                               std::vector<profiler::RowSummaryLevel> summaries)
    : data_(withHeader(std::move(header))),
      count_(count),
      summaries_(std::move(summaries)),
      work_(std::in_place, data_->trace_.lanes) {
    TimelineData& d = *data_;
    if (d.trace_.strings.size() > TimelineEvent::kMaxNames) {
        throw std::length_error("the trace holds " + std::to_string(d.trace_.strings.size()) +
                                " distinct names; the timeline shows at most " +
                                std::to_string(TimelineEvent::kMaxNames));
    }
    d.internNames();
    d.stored_order_ = true;
    d.where_.resize(count);
    d.kinds_.resize(count);
    correlated_.reserve(count);  // at most one each, and no growth's copy at the peak
    rank_key_of_lane_ = TimelineData::launchRankKeys(d.trace_.lanes);
    rows_of_lane_.resize(d.trace_.lanes.size());
    range_of_lane_.assign(d.trace_.lanes.size(), {0, 0});
    category_cache_.resize(static_cast<std::size_t>(profiler::ActivityKind::Collective) + 1);
    // A summarised row's buckets count every event of it: its size, known before it passes.
    for (const profiler::RowSummaryLevel& level : summaries_) {
        std::size_t n = 0;
        for (const profiler::SummaryBucket& b : level.buckets)
            n += b.count;
        summarised_size_.emplace(std::make_pair(level.lane, level.depth), n);
    }
}

Category TimelineStream::categoryOf(profiler::ActivityKind kind, profiler::StringId name) {
    const auto k = static_cast<std::size_t>(kind);
    if (k >= category_cache_.size())
        return data_->categoryOf(kind, name);
    auto& cache = category_cache_[k];
    if (cache.empty())
        cache.assign(data_->trace_.strings.size(), 0);
    if (cache[name] == 0) {
        // Classified as build classifies a trace that is not a host-op trace (one that is
        // is built from the whole trace instead).
        const Category c = classify(kind, data_->trace_.strings.at(name), false);
        data_->category_of_.emplace(std::make_pair(static_cast<int>(kind), name), c);
        cache[name] = static_cast<std::uint8_t>(static_cast<int>(c) + 1);
    }
    return static_cast<Category>(cache[name] - 1);
}

void TimelineStream::endLane() {
    if (lane_rows_.empty())
        return;
    for (auto& events : lane_rows_)
        events.shrink_to_fit();  // a row the summaries did not size grew by doubling
    rows_of_lane_[lane_] = std::move(lane_rows_);
    range_of_lane_[lane_] = {lane_first_, next_};
    lane_rows_.clear();
}

bool TimelineStream::add(const profiler::Activity& a) {
    TimelineData& d = *data_;
    if (next_ >= count_ || a.lane >= d.trace_.lanes.size() || a.name >= d.trace_.strings.size())
        return false;
    const OrderKey key{a.lane, a.start_ns, a.end_ns};
    if (next_ > 0 && profiler::in_trace_order(key, last_))
        return false;  // sorted would put it before the last one
    const auto index = static_cast<std::uint32_t>(next_);
    if (next_ == 0 || a.lane != lane_) {
        endLane();
        lane_ = a.lane;
        lane_first_ = next_;
    }
    const profiler::Lane& lane = d.trace_.lanes[a.lane];
    const Category category = categoryOf(a.kind, a.name);
    const std::uint16_t depth = profiler::summary_row_depth(lane, a);
    if (lane_rows_.size() <= depth) {
        const std::size_t from = lane_rows_.size();
        lane_rows_.resize(depth + 1U);
        for (std::size_t r = from; r < lane_rows_.size(); ++r) {
            const auto it = summarised_size_.find({a.lane, static_cast<std::uint16_t>(r)});
            if (it != summarised_size_.end())
                lane_rows_[r].reserve(it->second);
        }
    }
    auto& events = lane_rows_[depth];
    // The row is the lane's depth until the rows are placed (finish adds the lane's first).
    d.where_[index] = TimelineData::EventRef{depth, static_cast<std::uint32_t>(events.size())};
    events.push_back(TimelineEvent::make(a.start_ns, a.end_ns, index, a.name, category));
    d.kinds_[index] = a.kind;
    if (is_gpu_work(category))
        d.gpu_by_start_.push_back(index);
    if (a.correlation != 0)
        correlated_.push_back(
            TimelineData::correlated(a.correlation, rank_key_of_lane_[a.lane], category, index));
    work_->add(a);
    if (a.kind == profiler::ActivityKind::Kernel)
        ++d.kernel_count_;
    gpu_work_ = gpu_work_ || a.kind == profiler::ActivityKind::Kernel ||
                a.kind == profiler::ActivityKind::Memcpy ||
                a.kind == profiler::ActivityKind::Memset;
    host_ops_ = host_ops_ || a.kind == profiler::ActivityKind::HostOp;
    if (next_ == 0) {
        begin_ns_ = a.start_ns;
        end_ns_ = a.end_ns;
    } else {
        begin_ns_ = std::min(begin_ns_, a.start_ns);
        end_ns_ = std::max(end_ns_, a.end_ns);
    }
    precision_.see(a.start_ns, a.end_ns);
    last_ = key;
    ++next_;
    return true;
}

std::shared_ptr<TimelineData> TimelineStream::finish() {
    endLane();
    TimelineData& d = *data_;
    if (next_ != count_)
        return nullptr;
    d.where_.shrink_to_fit();
    std::int64_t begin = next_ == 0 ? 0 : begin_ns_;
    std::int64_t end = next_ == 0 ? 1 : end_ns_;
    // As rebaseAbsoluteTimes does for a whole trace, once the first start is known.
    if (begin > TimelineData::kRebaseAbove) {
        for (auto& rows : rows_of_lane_) {
            for (auto& events : rows) {
                for (TimelineEvent& e : events) {
                    e.start -= begin;
                    e.end -= begin;
                }
            }
        }
        work_->shift_earlier(begin);
        d.rebaseHeaderBy(begin);
        end -= begin;
        begin = 0;
    }
    d.begin_ns_ = begin;
    d.end_ns_ = std::max(end, begin + 1);
    d.resolution_ns_ = precision_.resolution_ns();
    // The rows in display order, and each activity's row from its depth.
    d.lane_first_row_.assign(d.trace_.lanes.size(), std::numeric_limits<std::size_t>::max());
    for (const profiler::LaneId lane : d.laneOrder()) {
        auto& rows = rows_of_lane_[lane];
        if (rows.empty())
            continue;
        const std::size_t row0 = d.addRows(lane, rows.size());
        for (std::size_t r = 0; r < rows.size(); ++r) {
            d.rows_[row0 + r].events = std::move(rows[r]);
            d.rows_[row0 + r].indexEnds();
        }
        const auto [first, last] = range_of_lane_[lane];
        for (std::size_t i = first; i < last; ++i)
            d.where_[i].row += static_cast<std::uint32_t>(row0);
    }
    std::vector<std::vector<std::vector<TimelineEvent>>>().swap(rows_of_lane_);
    d.placeRows();
    d.gpu_by_start_.shrink_to_fit();
    d.sortGpuWork();
    // Each temporary let go as soon as it is used: the load's peak. The launch join's
    // first (the correlation ids are the larger), then the busy timelines' (the device work
    // and its edges).
    d.indexLaunches(std::move(correlated_));
    d.keepDeviceBusy(profiler::device_busy_timelines(*work_, TimelineData::busyOptions()));
    work_.reset();
    for (profiler::RowSummaryLevel& level : summaries_) {
        d.attachSummaries({&level, 1});
        std::vector<profiler::SummaryBucket>().swap(level.buckets);
    }
    std::vector<profiler::RowSummaryLevel>().swap(summaries_);
    d.memory_ = reports::memory_stacks(d.trace_);
    d.labelNames();
    return std::move(data_);
}

}  // namespace trainscope::gui
