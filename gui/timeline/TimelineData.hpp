#pragma once

#include <QString>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "gui/timeline/KernelCategory.hpp"
#include "profiler/analysis/BusyTimeline.hpp"
#include "profiler/analysis/ComputeThreadBusy.hpp"
#include "profiler/analysis/GpuBusyAnalysis.hpp"
#include "profiler/analysis/LaneSummary.hpp"
#include "profiler/trace/Trace.hpp"
#include "reports/memory/MemorySeries.hpp"

namespace trainscope::reports {
class ActivityReader;
}

namespace trainscope::gui {

// A compact copy of one activity for painting: 24 bytes, time-sorted per row. The name
// and the category share a word (a trace with more than kMaxNames distinct names is
// refused by TimelineData::build); the rest of the record stays in the trace.
struct TimelineEvent {
    static constexpr std::uint32_t kNameBits = 28;
    static constexpr std::uint32_t kMaxNames = std::uint32_t{1} << kNameBits;

    std::int64_t start = 0;
    std::int64_t end = 0;
    std::uint32_t activity = 0;          // the activity's index in the trace
    std::uint32_t name : kNameBits = 0;  // StringId
    std::uint32_t category_bits : 32 - kNameBits = 0;

    static TimelineEvent make(std::int64_t from, std::int64_t to, std::uint32_t index,
                              std::uint32_t name_id, Category cat) {
        TimelineEvent out;
        out.start = from;
        out.end = to;
        out.activity = index;
        out.name = name_id;
        out.category_bits = static_cast<std::uint32_t>(cat);
        return out;
    }
    [[nodiscard]] Category category() const { return static_cast<Category>(category_bits); }
};
static_assert(sizeof(TimelineEvent) == 24, "TimelineEvent grew: the timeline's memory budget");
static_assert(static_cast<std::uint32_t>(Category::Overhead) < 16, "categories fill 4 bits");

// A level-of-detail bucket of a row (profiler::SummaryBucket on the timeline's clock): the
// activities starting in [begin, begin + width), their extent, how many, the row's busy
// time in the bucket, and the longest one's name and category, which give a folded block
// its colour.
struct LodBucket {
    std::int64_t first_start = 0;
    std::int64_t last_end = 0;
    std::int64_t busy_ns = 0;
    std::int64_t longest_ns = 0;
    std::uint32_t count = 0;
    std::uint32_t name = 0;  // StringId
    Category category = Category::OtherKernel;
};

// One level of a row's summaries; buckets in time order, max_end[i] the largest last_end
// of buckets 0..i (as TimelineRow::max_end for events).
struct LodLevel {
    std::int64_t width_ns = 0;
    std::int64_t origin_ns = 0;
    std::vector<LodBucket> buckets;
    std::vector<std::int64_t> max_end;

    [[nodiscard]] std::int64_t bucketBegin(const LodBucket& b) const;
};

// One painted row: a lane at one nesting depth. Events never start before the previous
// one; max_end[i] is the largest end among events 0..i, so the first event that can be
// visible from time t is found by one lower_bound even if a row holds overlaps. A row
// whose ends never decrease (a stream, a well-nested stack: nearly every row) keeps no
// max_end, its events' own ends are searched: 8 bytes per event saved.
struct TimelineRow {
    QString label;  // lane name, shown on the lane's first row
    profiler::LaneKind lane_kind = profiler::LaneKind::GpuStream;
    profiler::LaneId lane = 0;
    std::int32_t device = -1;
    // The lane belongs to a device: a GPU's streams and annotations, or in a CPU-backend
    // trace the threads that run its ops (and their NVTX ranges).
    bool device_lane = false;
    int depth = 0;
    bool first_of_lane = true;
    int top = 0;  // y of the row's top edge in content coordinates (below the ruler)
    std::vector<TimelineEvent> events;
    std::vector<std::int64_t> max_end;  // empty when the events' ends never decrease
    // Level-of-detail summaries, finest first; only the levels dense enough to be worth it.
    std::vector<LodLevel> lod;
    // False in a trace's outline (TimelineData::buildOutline): the events are still being
    // read, the row paints from its summaries only (TimelineRenderer::appendRow).
    bool events_loaded = true;

    // Fills max_end after the events changed (left empty when it would be their ends).
    void indexEnds();

    // [first, last) indexes of events that may intersect [t0, t1).
    [[nodiscard]] std::pair<std::size_t, std::size_t> window(double t0, double t1) const;
    // The coarsest level whose buckets are at most `max_width_ns` wide; null if none.
    [[nodiscard]] const LodLevel* lodFor(double max_width_ns) const;
    // Index of the first event starting at or after t.
    [[nodiscard]] std::size_t firstStartingAt(std::int64_t t) const;
};

// Busy time of one device: the union of its kernels, copies and sets, from the
// profiler's device_busy_timelines (the busy time analyze_gpu_busy gives for any window).
struct DeviceBusy {
    std::int32_t device = 0;
    profiler::BusyTimeline timeline;
    std::int32_t rank = 0;  // a job's ranks each number their GPUs from 0

    [[nodiscard]] double busyNs(double t0, double t1) const { return timeline.busy_ns(t0, t1); }
};

// What the views read of any activity, from the timeline's compact data (its event, its
// row, its kind): no database read. The rest of the record (its correlation id among it)
// is TimelineData::details; the launch it joins is TimelineData::launchOf and
// gpuWorkLaunchedBy.
struct ActivityCore {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    profiler::LaneId lane = 0;
    profiler::StringId name = 0;
    profiler::ActivityKind kind = profiler::ActivityKind::Kernel;

    [[nodiscard]] std::int64_t duration_ns() const { return end_ns - start_ns; }
};

// Activities read for one of the profiler's analyses: the whole trace while the records
// are in memory, else those read from the store with the trace's lanes, names and
// collectives; `original` maps an index into trace().activities back to the timeline's.
class ActivitySelection {
  public:
    explicit ActivitySelection(const profiler::Trace& whole) : borrowed_(&whole) {}
    ActivitySelection(profiler::Trace owned, std::vector<std::uint32_t> index)
        : owned_(std::move(owned)), index_(std::move(index)) {}
    [[nodiscard]] const profiler::Trace& trace() const {
        return borrowed_ != nullptr ? *borrowed_ : owned_;
    }
    [[nodiscard]] std::uint32_t original(std::size_t i) const {
        return borrowed_ != nullptr ? static_cast<std::uint32_t>(i) : index_[i];
    }

  private:
    const profiler::Trace* borrowed_ = nullptr;
    profiler::Trace owned_;
    std::vector<std::uint32_t> index_;
};

// The timeline's read-only model of a trace: built once off the GUI thread, shared by
// the timeline, utilization and kernel views. It holds compact events; the activities'
// full records stay in memory only until keepDetailsIn hands them to the store.
class TimelineData {
    friend class TimelineStream;  // builds one from rows read one at a time

  public:
    static constexpr int kRowHeight = 18;
    static constexpr int kLaneGap = 6;
    static constexpr std::size_t kMaxDepth = profiler::kMaxSummaryDepth;  // deepest row per lane

    using Progress = std::function<void(int percent)>;
    // Sorts and indexes the trace. Returns nullptr when *stop becomes true.
    // `summaries` are the ones stored with the trace (reports::load_lane_summaries); without
    // them they are made here (profiler::summarize_rows).
    static std::shared_ptr<TimelineData> build(
        profiler::Trace trace, const std::atomic<bool>* stop = nullptr,
        const Progress& progress = {},
        std::optional<std::vector<profiler::RowSummaryLevel>> summaries = std::nullopt);
    // A trace's outline for the first frame while its events load: `outline` holds the
    // lanes, names and clocks but no activities (reports::load_trace_outline); the rows are
    // those the summaries name, painted from them only (events_loaded false), every lane
    // at least its first row. The views treat it as a trace without activities.
    static std::shared_ptr<const TimelineData> buildOutline(
        profiler::Trace outline, const std::vector<profiler::RowSummaryLevel>& summaries);
    // True for buildOutline's data: the events are still loading.
    [[nodiscard]] bool partial() const { return partial_; }
    // Subtracted from the trace's absolute times to give the timeline's (0 unless the
    // trace carried absolute clock values): an outline and its full trace may differ.
    [[nodiscard]] std::int64_t rebasedBy() const { return rebased_by_; }

    // Where the memory goes, in bytes (the benchmark reports it per activity).
    struct MemoryUse {
        std::size_t activities = 0;  // the trace's records (profiler::Activity)
        std::size_t events = 0;      // the rows' TimelineEvents and their max_end
        std::size_t summaries = 0;   // level-of-detail buckets
        std::size_t names = 0;       // the trace's strings and their QString copies
        std::size_t indexes = 0;     // locators, kinds, GPU work by start, launch pairs
        std::size_t busy = 0;        // per-device busy timelines, compute-thread busy time
        [[nodiscard]] std::size_t total() const {
            return activities + events + summaries + names + indexes + busy;
        }
    };
    [[nodiscard]] MemoryUse memoryUse() const;

    // Frees the activities' records: from now on details() and the analyses' selections
    // read them from `store`, which must hold this trace (the loader's run) in the order
    // the timeline holds it. Returns false, keeping the records, when it cannot (the
    // stored order is not the timeline's, or the counts differ). Call before sharing.
    bool keepDetailsIn(std::shared_ptr<const reports::ActivityReader> store);
    // True once the records live in the store only.
    [[nodiscard]] bool detailsInStore() const { return store_ != nullptr; }

    // The trace's lanes, names, clocks, collectives and counters; its activities only until
    // keepDetailsIn (use activity, details, deviceWorkIn and wholeTrace for them).
    [[nodiscard]] const profiler::Trace& trace() const { return trace_; }
    [[nodiscard]] const std::vector<TimelineRow>& rows() const { return rows_; }
    [[nodiscard]] const QString& name(std::uint32_t id) const { return names_[id]; }
    // The name as painted: kernel names shortened (display_name), others as they are.
    [[nodiscard]] const QString& label(std::uint32_t id) const { return labels_[id]; }
    [[nodiscard]] std::size_t nameCount() const { return names_.size(); }
    [[nodiscard]] std::int64_t beginNs() const { return begin_ns_; }
    [[nodiscard]] std::int64_t endNs() const { return end_ns_; }
    [[nodiscard]] int contentHeight() const { return content_height_; }
    [[nodiscard]] std::size_t activityCount() const { return where_.size(); }
    [[nodiscard]] ActivityCore activity(std::uint32_t index) const;
    // Its event: what a loop over many activities reads (search), without the correlation
    // lookup activity() makes.
    [[nodiscard]] const TimelineEvent& eventOf(std::uint32_t index) const {
        return rows_[where_[index].row].events[where_[index].pos];
    }
    // The whole record (a tooltip, the details pane), read from the store once the
    // records live there; on the timeline's clock. StoreError or SqliteError from the file.
    [[nodiscard]] profiler::Activity details(std::uint32_t index) const;
    // The device work (gpuWorkByStart) that can overlap [t0, t1) or nest in work starting
    // in it: starting within the longest work's duration of the window; for the analyses
    // restricted to the window (they count what starts in it).
    [[nodiscard]] ActivitySelection deviceWorkIn(double t0_ns, double t1_ns) const;
    // Every activity (the compare view's diff), read from the store once they live there.
    [[nodiscard]] ActivitySelection wholeTrace() const;
    [[nodiscard]] Category category(std::uint32_t index) const { return eventOf(index).category(); }
    // The row an activity is painted on (its lane's first row plus its summary depth).
    [[nodiscard]] int rowOf(std::uint32_t activity) const;
    // The GPU work an activity that is not GPU work launched (an API call; the first GPU
    // activity of its rank with its correlation id) and the API call that launched a GPU
    // activity (the first API call of its rank with its id). A correlation id counts per
    // process, so a job's ranks reuse them: the rank is part of the join.
    [[nodiscard]] std::optional<std::uint32_t> gpuWorkLaunchedBy(std::uint32_t activity) const;
    [[nodiscard]] std::optional<std::uint32_t> launchOf(std::uint32_t work) const;
    [[nodiscard]] std::int32_t rankOf(std::uint32_t activity) const {
        return trace_.lanes[rows_[where_[activity].row].lane].rank;
    }
    // GPU work (kernels, copies, sets) of all devices sorted by start time.
    [[nodiscard]] const std::vector<std::uint32_t>& gpuWorkByStart() const { return gpu_by_start_; }
    // GPU busy time per device (device >= 0).
    [[nodiscard]] const std::vector<DeviceBusy>& deviceBusy() const { return busy_; }
    // A CPU-backend trace (profiler::is_host_op_trace): its host ops are the device's
    // work, in gpuWorkByStart(), the statistics and the colours of kernels.
    [[nodiscard]] bool hostOpTrace() const { return host_op_trace_; }
    // How busy the threads that run host ops are (empty unless hostOpTrace()).
    [[nodiscard]] const profiler::ComputeThreadBusy& computeThreadBusy() const {
        return compute_busy_;
    }
    // A traced run's bytes in use per tensor class ("memory/<class>" counters) stacked
    // on one time axis, one stack per rank (rank order); empty when the trace has none.
    [[nodiscard]] const std::vector<reports::MemoryStack>& memoryStacks() const { return memory_; }
    // The first rank's stack (a one-process run's); empty when the trace has none.
    [[nodiscard]] const reports::MemoryStack& memoryStack() const;
    [[nodiscard]] std::size_t kernelCount() const { return kernel_count_; }
    // The finest step of the trace's timestamps: 1 ns, or 1000 ns for a Kineto file
    // with integer microseconds. Times are shown to this precision, no finer.
    [[nodiscard]] std::int64_t resolutionNs() const { return resolution_ns_; }

  private:
    // A trace whose first start lies above this carries absolute clock values: rebased.
    static constexpr std::int64_t kRebaseAbove = std::int64_t(1) << 42;  // about 73 minutes
    // The passes of build(), in order.
    void internNames();
    void classifyActivities();   // categories, kernel count, painted labels
    void labelNames();           // labels_ from names_ and category_of_
    void rebaseAbsoluteTimes();  // begin/end, resolution; absolute clocks made relative
    // What rebaseAbsoluteTimes moves besides the activities (collectives, counters, the
    // capture window, the clocks), for the whole trace and the rows read one by one alike.
    void rebaseHeaderBy(std::int64_t begin);
    // The busy time kept per device, from the profiler's timelines (the same for the
    // whole trace and the streamed rows; `analyze` asks with the same options).
    static profiler::GpuBusyOptions busyOptions();
    void keepDeviceBusy(std::vector<profiler::DeviceBusyTimeline> devices);
    bool layOutRows(const std::atomic<bool>* stop);  // false when stopped
    void addLaneRows(profiler::LaneId lane, std::size_t first, std::size_t last);
    void indexGpuWork();      // launch pairs, GPU work by start
    void measureBusy();       // per-device busy time, compute-thread busy time
    void locateActivities();  // where_ and kinds_ from the records
    void sortGpuWork();       // gpu_by_start_ in start order, longest_work_ns_
    void attachSummaries(std::span<const profiler::RowSummaryLevel> levels);
    [[nodiscard]] Category categoryOf(profiler::ActivityKind kind, profiler::StringId name) const;
    // The display order of the lanes (lane_order_key).
    [[nodiscard]] std::vector<profiler::LaneId> laneOrder() const;
    [[nodiscard]] bool isDeviceLane(const profiler::Lane& lane) const;
    // Appends `count` rows of a lane (depth 0..count-1) and returns the first's index.
    std::size_t addRows(profiler::LaneId lane, std::size_t count);
    void placeRows();  // tops and content height from the rows in order

    profiler::Trace trace_;
    std::vector<TimelineRow> rows_;
    std::vector<QString> names_;
    std::vector<QString> labels_;
    std::vector<Category> categories_;  // by activity while build() runs, then freed
    std::map<std::pair<int, profiler::StringId>, Category> category_of_;  // by (kind, name)
    std::vector<std::size_t> lane_first_row_;  // by LaneId; SIZE_MAX for a lane without rows
    std::int64_t rebased_by_ = 0;              // subtracted from every time of the trace
    std::set<std::pair<std::int64_t, std::int64_t>> op_threads_;  // (process, thread)
    // An activity with a correlation id as the launch index takes it: 16 bytes while
    // the index is built, nothing after.
    struct Correlated {
        enum Role : std::uint32_t { kWork = 0, kApi = 1, kOther = 2 };
        std::uint64_t correlation = 0;
        std::uint32_t rank_role = 0;  // the rank's key (launchRankKeys) << 2 | Role
        std::uint32_t index = 0;
    };
    // Each lane's rank as its place among the distinct ranks of `lanes`, in rank order: any
    // 32-bit rank in the 30 bits beside the role (the ranks themselves would lose their top
    // bits). std::length_error beyond 2^30 distinct ranks.
    static std::vector<std::uint32_t> launchRankKeys(std::span<const profiler::Lane> lanes);
    static Correlated correlated(std::uint64_t correlation, std::uint32_t rank_key,
                                 Category category, std::uint32_t index);
    // Joins launches to their work by (rank, correlation id): launch_of_work_ and
    // work_of_launch_. Consumes `items`.
    void indexLaunches(std::vector<Correlated> items);
    // (activity, partner) sorted by activity: every GPU activity whose launch is known,
    // every other activity whose correlation id some GPU work shares: 8 bytes each, where
    // the ids and their indexes took 20.
    struct LaunchPair {
        std::uint32_t from = 0;
        std::uint32_t to = 0;
    };
    std::vector<LaunchPair> launch_of_work_;
    std::vector<LaunchPair> work_of_launch_;
    bool partial_ = false;
    // By activity index: its row and its place among the row's events.
    struct EventRef {
        std::uint32_t row = 0;
        std::uint32_t pos = 0;
    };
    std::vector<EventRef> where_;
    std::vector<profiler::ActivityKind> kinds_;
    // Set by keepDetailsIn: the records are read from here, shifted by details_shift_ (the
    // rebase of absolute clocks) onto the timeline's clock.
    std::shared_ptr<const reports::ActivityReader> store_;
    std::int64_t details_shift_ = 0;
    bool stored_order_ = false;         // the trace came sorted: index i is the store's i
    std::int64_t longest_work_ns_ = 0;  // of gpu_by_start_, bounds deviceWorkIn's read
    [[nodiscard]] profiler::Trace headerCopy() const;  // trace_ without its activities
    std::vector<std::uint32_t> gpu_by_start_;
    std::vector<DeviceBusy> busy_;
    profiler::ComputeThreadBusy compute_busy_;
    std::vector<reports::MemoryStack> memory_;
    bool host_op_trace_ = false;
    std::int64_t begin_ns_ = 0;
    std::int64_t end_ns_ = 1;
    int content_height_ = 0;
    std::size_t kernel_count_ = 0;
    std::int64_t resolution_ns_ = 1;
};

}  // namespace trainscope::gui
