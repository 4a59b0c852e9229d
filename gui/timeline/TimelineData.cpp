#include "gui/timeline/TimelineData.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

#include "gui/timeline/KernelName.hpp"
#include "gui/timeline/TimestampPrecision.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/trace/LaneRegistry.hpp"
#include "profiler/trace/TraceOrder.hpp"
#include "reports/store/ActivityReader.hpp"

namespace trainscope::gui {

using profiler::Activity;
using profiler::Lane;
using profiler::LaneKind;

std::pair<std::size_t, std::size_t> TimelineRow::window(double t0, double t1) const {
    // First event whose running max end lies after t0: everything before ended earlier.
    std::size_t f = 0;
    if (max_end.empty()) {  // ends never decrease: they are their own running maximum
        f = static_cast<std::size_t>(std::upper_bound(events.begin(), events.end(), t0,
                                                      [](double t, const TimelineEvent& e) {
                                                          return t < static_cast<double>(e.end);
                                                      }) -
                                     events.begin());
    } else {
        f = static_cast<std::size_t>(
            std::upper_bound(max_end.begin(), max_end.end(), t0,
                             [](double t, std::int64_t e) { return t < static_cast<double>(e); }) -
            max_end.begin());
    }
    const auto last = std::lower_bound(
        events.begin() + static_cast<std::ptrdiff_t>(f), events.end(), t1,
        [](const TimelineEvent& e, double t) { return static_cast<double>(e.start) < t; });
    return {f, static_cast<std::size_t>(last - events.begin())};
}

void TimelineRow::indexEnds() {
    max_end.clear();
    const bool monotone = std::is_sorted(
        events.begin(), events.end(),
        [](const TimelineEvent& a, const TimelineEvent& b) { return a.end < b.end; });
    if (monotone)
        return;
    max_end.resize(events.size());
    std::int64_t m = std::numeric_limits<std::int64_t>::min();
    for (std::size_t i = 0; i < events.size(); ++i) {
        m = std::max(m, events[i].end);
        max_end[i] = m;
    }
}

std::size_t TimelineRow::firstStartingAt(std::int64_t t) const {
    return static_cast<std::size_t>(
        std::lower_bound(events.begin(), events.end(), t,
                         [](const TimelineEvent& e, std::int64_t v) { return e.start < v; }) -
        events.begin());
}

const LodLevel* TimelineRow::lodFor(double max_width_ns) const {
    const LodLevel* best = nullptr;
    for (const LodLevel& level : lod) {
        if (static_cast<double>(level.width_ns) > max_width_ns)
            break;
        best = &level;
    }
    return best;
}

std::int64_t LodLevel::bucketBegin(const LodBucket& b) const {
    const std::int64_t d = b.first_start - origin_ns;
    const std::int64_t index = d >= 0 ? d / width_ns : -((-d + width_ns - 1) / width_ns);
    return origin_ns + index * width_ns;
}

ActivityCore TimelineData::activity(std::uint32_t index) const {
    const EventRef at = where_[index];
    const TimelineRow& row = rows_[at.row];
    const TimelineEvent& e = row.events[at.pos];
    ActivityCore out;
    out.start_ns = e.start;
    out.end_ns = e.end;
    out.lane = row.lane;
    out.name = e.name;
    out.kind = kinds_[index];
    return out;
}

profiler::Activity TimelineData::details(std::uint32_t index) const {
    if (!store_)
        return trace_.activities[index];
    profiler::Activity a = store_->read(index);
    a.start_ns -= details_shift_;
    a.end_ns -= details_shift_;
    return a;
}

profiler::Trace TimelineData::headerCopy() const {
    profiler::Trace out;
    out.base_ns = trace_.base_ns;
    out.capture_begin_ns = trace_.capture_begin_ns;
    out.capture_end_ns = trace_.capture_end_ns;
    out.dropped_records = trace_.dropped_records;
    out.strings = trace_.strings;
    out.lanes = trace_.lanes;
    out.world_size = trace_.world_size;
    out.collectives = trace_.collectives;
    out.metadata = trace_.metadata;
    out.source_clock_offset_ns = trace_.source_clock_offset_ns;
    return out;
}

namespace {

// The stored records at `index`, on the timeline's clock (the store keeps the file's).
std::vector<profiler::Activity> readRebased(const reports::ActivityReader& reader,
                                            std::span<const std::uint32_t> index,
                                            std::int64_t shift_ns) {
    std::vector<profiler::Activity> activities = reader.read(index);
    for (profiler::Activity& a : activities) {
        a.start_ns -= shift_ns;
        a.end_ns -= shift_ns;
    }
    return activities;
}

}  // namespace

ActivitySelection TimelineData::deviceWorkIn(double t0_ns, double t1_ns) const {
    if (!store_)
        return ActivitySelection(trace_);  // the analyses restrict themselves to the window
    // gpu_by_start_ is sorted by start: work that overlaps the window starts at most the
    // longest duration before it, and what nests in work starting in it (an op's children,
    // its self time) at most that long after its end.
    const auto start_of = [this](std::uint32_t i) { return static_cast<double>(eventOf(i).start); };
    const auto first = std::lower_bound(gpu_by_start_.begin(), gpu_by_start_.end(),
                                        t0_ns - static_cast<double>(longest_work_ns_),
                                        [&](std::uint32_t i, double t) { return start_of(i) < t; });
    const auto last =
        std::lower_bound(first, gpu_by_start_.end(), t1_ns + static_cast<double>(longest_work_ns_),
                         [&](std::uint32_t i, double t) { return start_of(i) < t; });
    std::vector<std::uint32_t> index(first, last);
    std::sort(index.begin(), index.end());  // the store's order: consecutive rows read at once
    profiler::Trace out = headerCopy();
    out.activities = readRebased(*store_, index, details_shift_);
    return ActivitySelection(std::move(out), std::move(index));
}

ActivitySelection TimelineData::wholeTrace() const {
    if (!store_)
        return ActivitySelection(trace_);
    std::vector<std::uint32_t> index(activityCount());
    for (std::size_t i = 0; i < index.size(); ++i)
        index[i] = static_cast<std::uint32_t>(i);
    profiler::Trace out = headerCopy();
    out.counters = trace_.counters;
    // On a connection of its own: a read of millions of rows (the compare view's diff,
    // off the GUI thread) must not hold the shared reader's lock that tooltips wait on.
    const reports::ActivityReader own(store_->path(), store_->runId());
    out.activities = readRebased(own, index, details_shift_);
    return ActivitySelection(std::move(out), std::move(index));
}

bool TimelineData::keepDetailsIn(std::shared_ptr<const reports::ActivityReader> store) {
    if (!store || !stored_order_ || store->size() != activityCount())
        return false;
    store_ = std::move(store);
    std::vector<profiler::Activity>().swap(trace_.activities);  // gives the memory back
    return true;
}

void TimelineData::locateActivities() {
    const auto n = trace_.activities.size();
    where_.assign(n, EventRef{});
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        const auto& events = rows_[r].events;
        for (std::size_t k = 0; k < events.size(); ++k)
            where_[events[k].activity] =
                EventRef{static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(k)};
    }
    kinds_.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        kinds_[i] = trace_.activities[i].kind;
}

int TimelineData::rowOf(std::uint32_t index) const {
    return static_cast<int>(where_[index].row);
}

namespace {

bool stopped(const std::atomic<bool>* stop) {
    return stop != nullptr && stop->load(std::memory_order_relaxed);
}

// Display order, rank by rank in a distributed job's trace (RankLaneGroups puts a header
// above each): the devices first (the centrepiece: a deep Python stack must not push the
// kernels out of view), each GPU's annotation lanes then its streams by id, and in a
// CPU-backend trace the threads that run ops, each with its NVTX ranges above its ops;
// then the rest of the host, thread by thread, NVTX ranges above the thread's API calls
// and ops.
auto lane_order_key(const Lane& lane, bool device_thread) {
    const bool gpu = lane.kind == LaneKind::GpuStream || lane.device >= 0;
    const int within = lane.kind == LaneKind::Nvtx ? 0 : 1;
    if (gpu)
        return std::make_tuple(lane.rank, 0, lane.device, within, std::int64_t{0},
                               lane.stream_or_thread);
    return std::make_tuple(lane.rank, device_thread ? 0 : 1, -1, 0, lane.process,
                           lane.stream_or_thread * 2 + within);
}

}  // namespace

std::shared_ptr<TimelineData> TimelineData::build(
    profiler::Trace trace, const std::atomic<bool>* stop, const Progress& progress,
    std::optional<std::vector<profiler::RowSummaryLevel>> summaries) {
    auto report = [&](int p) {
        if (progress)
            progress(p);
    };
    if (trace.strings.size() > TimelineEvent::kMaxNames) {
        throw std::length_error("the trace holds " + std::to_string(trace.strings.size()) +
                                " distinct names; the timeline shows at most " +
                                std::to_string(TimelineEvent::kMaxNames));
    }
    auto data = std::make_shared<TimelineData>();
    // Sorted already (as the store gives it) means index i is the store's i.
    data->stored_order_ = std::is_sorted(trace.activities.begin(), trace.activities.end(),
                                         profiler::in_trace_order<profiler::Activity>);
    trace.sort();
    report(40);
    if (stopped(stop))
        return nullptr;
    data->trace_ = std::move(trace);
    data->internNames();
    data->classifyActivities();
    data->rebaseAbsoluteTimes();
    report(55);
    if (stopped(stop) || !data->layOutRows(stop))
        return nullptr;
    data->locateActivities();
    report(75);
    data->indexGpuWork();
    std::vector<Category>().swap(data->categories_);  // the events carry them
    report(90);
    if (stopped(stop))
        return nullptr;
    data->measureBusy();
    // Made from the rebased trace when the store had none: then already on our clock.
    if (!summaries) {
        summaries = profiler::summarize_rows(data->trace_);
        data->rebased_by_ = 0;
    }
    data->attachSummaries(*summaries);
    data->memory_ = reports::memory_stacks(data->trace_);
    report(100);
    return data;
}

const reports::MemoryStack& TimelineData::memoryStack() const {
    static const reports::MemoryStack kNone;
    return memory_.empty() ? kNone : memory_.front();
}

void TimelineData::internNames() {
    const profiler::StringTable& strings = trace_.strings;
    names_.reserve(strings.size());
    for (std::size_t i = 0; i < strings.size(); ++i)
        names_.push_back(QString::fromStdString(strings.at(static_cast<profiler::StringId>(i))));
}

void TimelineData::classifyActivities() {
    const profiler::Trace& t = trace_;
    const auto n = t.activities.size();
    host_op_trace_ = profiler::is_host_op_trace(t);
    // Classify each distinct (kind, name) once.
    std::map<std::pair<int, profiler::StringId>, Category> memo;
    categories_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Activity& a = t.activities[i];
        const auto key = std::make_pair(static_cast<int>(a.kind), a.name);
        auto it = memo.find(key);
        if (it == memo.end())
            it = memo.emplace(key, classify(a.kind, t.strings.at(a.name), host_op_trace_)).first;
        categories_[i] = it->second;
        if (a.kind == profiler::ActivityKind::Kernel)
            ++kernel_count_;
    }
    category_of_ = memo;
    labelNames();
}

void TimelineData::labelNames() {
    // Kernel names as painted: shortened by their category.
    labels_ = names_;
    for (const auto& [key, category] : category_of_) {
        if (key.first == static_cast<int>(profiler::ActivityKind::Kernel))
            labels_[key.second] = display_name(names_[key.second], category);
    }
}

void TimelineData::rebaseAbsoluteTimes() {
    std::int64_t begin = std::numeric_limits<std::int64_t>::max();
    std::int64_t end = std::numeric_limits<std::int64_t>::min();
    for (const Activity& a : trace_.activities) {
        begin = std::min(begin, a.start_ns);
        end = std::max(end, a.end_ns);
    }
    if (trace_.activities.empty()) {
        begin = 0;
        end = 1;
    }
    // Times should be relative to base_ns; a trace with absolute clock values (~1e18 ns)
    // would lose precision in the double maths of the axis: rebase it, keeping meaning.
    if (begin > kRebaseAbove) {
        for (Activity& a : trace_.activities) {
            a.start_ns -= begin;
            a.end_ns -= begin;
        }
        rebaseHeaderBy(begin);
        end -= begin;
        begin = 0;
    }
    begin_ns_ = begin;
    end_ns_ = std::max(end, begin + 1);
    TimestampPrecision precision;
    for (const Activity& a : trace_.activities)
        precision.see(a.start_ns, a.end_ns);
    resolution_ns_ = precision.resolution_ns();
}

void TimelineData::rebaseHeaderBy(std::int64_t begin) {
    for (auto& call : trace_.collectives) {  // they name their activities by span
        call.start_ns -= begin;
        call.end_ns -= begin;
    }
    for (auto& series : trace_.counters) {
        for (auto& sample : series.samples)
            sample.t_ns -= begin;
    }
    trace_.base_ns += begin;
    rebased_by_ = begin;
    details_shift_ = begin;
    trace_.capture_begin_ns -= begin;
    trace_.capture_end_ns -= begin;
}

profiler::GpuBusyOptions TimelineData::busyOptions() {
    profiler::GpuBusyOptions options;
    options.include_copies = true;
    return options;
}

void TimelineData::keepDeviceBusy(std::vector<profiler::DeviceBusyTimeline> devices) {
    for (auto& device : devices) {
        if (device.device >= 0)
            busy_.push_back({device.device, std::move(device.busy), device.rank});
    }
}

bool TimelineData::isDeviceLane(const Lane& lane) const {
    return lane.kind == LaneKind::GpuStream || lane.device >= 0 ||
           op_threads_.count({lane.process, lane.stream_or_thread}) > 0;
}

std::vector<profiler::LaneId> TimelineData::laneOrder() const {
    const auto& lanes = trace_.lanes;
    std::vector<profiler::LaneId> order(lanes.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<profiler::LaneId>(i);
    std::stable_sort(order.begin(), order.end(), [&](profiler::LaneId a, profiler::LaneId b) {
        return lane_order_key(lanes[a], isDeviceLane(lanes[a])) <
               lane_order_key(lanes[b], isDeviceLane(lanes[b]));
    });
    return order;
}

std::size_t TimelineData::addRows(profiler::LaneId lane_id, std::size_t count) {
    const Lane& lane = trace_.lanes[lane_id];
    const std::size_t row0 = rows_.size();
    lane_first_row_[lane_id] = row0;
    const QString label =
        QString::fromStdString(lane.name.empty() ? profiler::lane_display_name(lane) : lane.name);
    for (std::size_t depth = 0; depth < count; ++depth) {
        TimelineRow row;
        row.lane = lane_id;
        row.lane_kind = lane.kind;
        row.device = lane.device;
        row.device_lane = isDeviceLane(lane);
        row.depth = static_cast<int>(depth);
        row.first_of_lane = depth == 0;
        row.label = label;
        rows_.push_back(std::move(row));
    }
    return row0;
}

void TimelineData::placeRows() {
    int y = 0;
    for (TimelineRow& row : rows_) {
        if (row.first_of_lane)
            y += kLaneGap;
        row.top = y;
        y += kRowHeight;
    }
    content_height_ = y + kLaneGap;
}

bool TimelineData::layOutRows(const std::atomic<bool>* stop) {
    const profiler::Trace& t = trace_;
    const auto n = t.activities.size();
    lane_first_row_.assign(t.lanes.size(), std::numeric_limits<std::size_t>::max());
    // Each lane's slice of the sorted activities.
    std::vector<std::size_t> lane_begin(t.lanes.size() + 1, n);
    for (std::size_t i = n; i-- > 0;)
        lane_begin[t.activities[i].lane] = i;
    if (host_op_trace_) {
        for (const Activity& a : t.activities) {
            if (a.kind == profiler::ActivityKind::HostOp)
                op_threads_.insert({t.lanes[a.lane].process, t.lanes[a.lane].stream_or_thread});
        }
    }
    for (const profiler::LaneId lane_id : laneOrder()) {
        const std::size_t first = lane_begin[lane_id];
        std::size_t last = first;
        while (last < n && t.activities[last].lane == lane_id)
            ++last;
        if (first == last)
            continue;
        addLaneRows(lane_id, first, last);
        if (stopped(stop))
            return false;
    }
    placeRows();
    return true;
}

void TimelineData::addLaneRows(profiler::LaneId lane_id, std::size_t first, std::size_t last) {
    const Lane& lane = trace_.lanes[lane_id];
    // The trace's own nesting (profiler::assign_nesting_depths, stored with the trace) is
    // the row: a partial overlap is a sibling there, and so here. Streams do not nest. The
    // rows are the level-of-detail summaries' rows (profiler::summary_row_depth).
    // Counted first so that every row's events are allocated once, without growth slack
    // (a third more memory on average).
    std::vector<std::size_t> per_depth;
    for (std::size_t i = first; i < last; ++i) {
        const std::size_t depth = profiler::summary_row_depth(lane, trace_.activities[i]);
        if (per_depth.size() <= depth)
            per_depth.resize(depth + 1, 0);
        ++per_depth[depth];
    }
    const std::size_t row0 = addRows(lane_id, per_depth.size());
    for (std::size_t d = 0; d < per_depth.size(); ++d)
        rows_[row0 + d].events.reserve(per_depth[d]);
    for (std::size_t i = first; i < last; ++i) {
        const Activity& a = trace_.activities[i];
        // A deeper stack than kMaxDepth shares the last row, which max_end copes with.
        TimelineRow& row = rows_[row0 + profiler::summary_row_depth(lane, a)];
        row.events.push_back(TimelineEvent::make(
            a.start_ns, a.end_ns, static_cast<std::uint32_t>(i), a.name, categories_[i]));
    }
    for (std::size_t r = row0; r < rows_.size(); ++r)
        rows_[r].indexEnds();
}

void TimelineData::indexGpuWork() {
    const profiler::Trace& t = trace_;
    std::vector<Correlated> items;
    const std::vector<std::uint32_t> rank_keys = launchRankKeys(t.lanes);
    for (std::size_t i = 0; i < t.activities.size(); ++i) {
        const Activity& a = t.activities[i];
        const auto idx = static_cast<std::uint32_t>(i);
        if (is_gpu_work(categories_[i]))
            gpu_by_start_.push_back(idx);
        if (a.correlation != 0)
            items.push_back(correlated(a.correlation, rank_keys[a.lane], categories_[i], idx));
    }
    sortGpuWork();
    indexLaunches(std::move(items));
}

void TimelineData::sortGpuWork() {
    std::stable_sort(
        gpu_by_start_.begin(), gpu_by_start_.end(),
        [&](std::uint32_t a, std::uint32_t b) { return eventOf(a).start < eventOf(b).start; });
    for (const std::uint32_t i : gpu_by_start_) {
        const TimelineEvent& e = eventOf(i);
        longest_work_ns_ = std::max(longest_work_ns_, e.end - e.start);
    }
}

void TimelineData::measureBusy() {
    // The profiler's busy time (kernels, copies and sets per device), so the plot, the
    // range panel and `trainscope analyze` agree. A CPU-backend trace's ops run on
    // threads: their busy share is compute_busy_, not a device's union.
    keepDeviceBusy(profiler::device_busy_timelines(trace_, busyOptions()));
    if (host_op_trace_)
        compute_busy_ = profiler::ComputeThreadBusy::from_host_ops(trace_);
}

}  // namespace trainscope::gui

namespace trainscope::gui {

Category TimelineData::categoryOf(profiler::ActivityKind kind, profiler::StringId name) const {
    const auto it = category_of_.find({static_cast<int>(kind), name});
    if (it != category_of_.end())
        return it->second;
    return classify(kind, trace_.strings.at(name), host_op_trace_);
}

void TimelineData::attachSummaries(std::span<const profiler::RowSummaryLevel> levels) {
    for (const profiler::RowSummaryLevel& level : levels) {
        // A level that does not fit the trace (another trace's, a damaged file) is left
        // out: the row then paints from its events, which is slower but right.
        if (level.lane >= lane_first_row_.size() || level.width_ns <= 0)
            continue;
        const std::size_t r = lane_first_row_[level.lane] + level.depth;
        if (lane_first_row_[level.lane] == std::numeric_limits<std::size_t>::max() ||
            r >= rows_.size() || rows_[r].lane != level.lane || rows_[r].depth != level.depth)
            continue;
        LodLevel out;
        out.width_ns = level.width_ns;
        out.origin_ns = level.origin_ns - rebased_by_;
        out.buckets.reserve(level.buckets.size());
        out.max_end.reserve(level.buckets.size());
        std::int64_t m = std::numeric_limits<std::int64_t>::min();
        bool fits = true;
        for (const profiler::SummaryBucket& b : level.buckets) {
            if (b.name >= trace_.strings.size()) {
                fits = false;
                break;
            }
            out.buckets.push_back(LodBucket{b.first_start - rebased_by_, b.last_end - rebased_by_,
                                            b.busy_ns, b.longest_ns, b.count, b.name,
                                            categoryOf(b.kind, b.name)});
            m = std::max(m, b.last_end - rebased_by_);
            out.max_end.push_back(m);
        }
        auto& lod = rows_[r].lod;
        if (fits && (lod.empty() || lod.back().width_ns < out.width_ns))
            lod.push_back(std::move(out));
    }
}

}  // namespace trainscope::gui
