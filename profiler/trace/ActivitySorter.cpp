#include "profiler/trace/ActivitySorter.hpp"

#include <algorithm>
#include <span>
#include <string>

#include "profiler/trace/TraceOrder.hpp"

namespace trainscope::profiler {

namespace {

// Trace::sort's order with the place of adding as the last key: the stable sort.
struct SortKey {
    LaneId lane;
    std::uint32_t index;
    std::int64_t start_ns;
    std::int64_t end_ns;
};

bool key_before(const SortKey& a, const SortKey& b) {
    if (in_trace_order(a, b))
        return true;
    if (in_trace_order(b, a))
        return false;
    return a.index < b.index;
}

// Sorting 24-byte keys and moving each 88-byte activity once is several times faster
// than std::stable_sort of the activities themselves.
std::vector<SortKey> sorted_keys(const std::vector<Activity>& run) {
    std::vector<SortKey> keys(run.size());
    for (std::size_t i = 0; i < run.size(); ++i)
        keys[i] = {run[i].lane, static_cast<std::uint32_t>(i), run[i].start_ns, run[i].end_ns};
    if (!std::is_sorted(keys.begin(), keys.end(), key_before))
        std::sort(keys.begin(), keys.end(), key_before);
    return keys;
}

constexpr std::size_t kReadBlock = 2048;  // activities read from a run at a time (176 KiB)
// A reader's blocks together: with more runs than fit at kReadBlock (a file of over about
// 12 M activities) each run's block shrinks, so that a reader's memory stops growing with
// the file (an Nsight Systems export of 2 GB has 150 runs: 26 MiB at 176 KiB each).
constexpr std::size_t kReadBudgetBytes = std::size_t{8} << 20;
constexpr std::size_t kMinReadBlock = 256;  // 22 KiB: still few reads

std::size_t read_block(std::size_t runs) {
    const std::size_t fit = kReadBudgetBytes / sizeof(Activity) / std::max<std::size_t>(runs, 1);
    return std::clamp(fit, kMinReadBlock, kReadBlock);
}

}  // namespace

struct SortedActivities::Run {
    std::int64_t begin = 0;  // position in the file, in activities
    std::int64_t next = 0;
    std::int64_t end = 0;
    std::vector<Activity> block;
    std::size_t at = 0;
};

SortedActivities::SortedActivities() = default;

void SortedActivities::refill(Run& run) {
    const auto count = static_cast<std::size_t>(
        std::min<std::int64_t>(run.end - run.next, static_cast<std::int64_t>(read_block_)));
    run.block.resize(count);
    run.at = 0;
    if (count == 0)
        return;
    file_->read(run.next * static_cast<std::int64_t>(sizeof(Activity)),
                std::as_writable_bytes(std::span(run.block)));
    run.next += static_cast<std::int64_t>(count);
}
SortedActivities::SortedActivities(SortedActivities&&) noexcept = default;
SortedActivities& SortedActivities::operator=(SortedActivities&&) noexcept = default;
SortedActivities::~SortedActivities() = default;

// Each run's first block; then the runs as a heap.
void SortedActivities::start_runs() {
    heap_.clear();
    read_block_ = read_block(runs_.size());
    for (std::uint32_t r = 0; r < runs_.size(); ++r) {
        runs_[r].next = runs_[r].begin;
        refill(runs_[r]);
        heap_.push_back(r);
    }
    std::make_heap(heap_.begin(), heap_.end(),
                   [this](std::uint32_t x, std::uint32_t y) { return run_after(x, y); });
}

// A job holds many ranks' runs at once but reads one rank at a time: a block per run of
// every rank (176 KiB each) would grow with the job.
void SortedActivities::release_blocks() {
    for (Run& run : runs_)
        run.block = {};
    heap_ = {};
    started_ = false;
}

void SortedActivities::rewind() {
    memory_at_ = 0;
    release_blocks();
}

std::unique_ptr<ActivityStream> SortedActivities::another_reader() const {
    if (!file_)
        return nullptr;
    auto reader = std::make_unique<SortedActivities>();
    reader->file_ = file_;
    for (const Run& run : runs_) {
        Run copy;
        copy.begin = run.begin;
        copy.next = run.begin;
        copy.end = run.end;
        reader->runs_.push_back(std::move(copy));
    }
    return reader;
}

bool SortedActivities::next(Activity& out) {
    if (!file_) {
        if (memory_at_ == memory_.size())
            return false;
        out = memory_[memory_at_++];
        return true;
    }
    if (!started_) {
        start_runs();
        started_ = true;
    }
    return next_from_runs(out);
}

// A min-heap of runs: a run is before another when its next activity is, or on a tie
// when it was written first (its activities were added first).
bool SortedActivities::run_after(std::uint32_t x, std::uint32_t y) const {
    const Activity& a = runs_[x].block[runs_[x].at];
    const Activity& b = runs_[y].block[runs_[y].at];
    if (in_trace_order(a, b))
        return false;
    if (in_trace_order(b, a))
        return true;
    return x > y;
}

bool SortedActivities::next_from_runs(Activity& out) {
    if (heap_.empty())
        return false;
    const auto after = [this](std::uint32_t x, std::uint32_t y) { return run_after(x, y); };
    std::pop_heap(heap_.begin(), heap_.end(), after);
    const std::uint32_t r = heap_.back();
    Run& run = runs_[r];
    out = run.block[run.at++];
    if (run.at == run.block.size())
        refill(run);
    if (run.block.empty()) {
        run.block = {};
        heap_.pop_back();
    } else {
        std::push_heap(heap_.begin(), heap_.end(), after);
    }
    return true;
}

ActivitySorter::ActivitySorter(std::size_t run_capacity)
    : run_capacity_(std::max<std::size_t>(run_capacity, 1)) {}
ActivitySorter::ActivitySorter(ActivitySorter&&) noexcept = default;
ActivitySorter& ActivitySorter::operator=(ActivitySorter&&) noexcept = default;
ActivitySorter::~ActivitySorter() = default;

void ActivitySorter::add(const Activity& activity) {
    if (buffer_.size() == run_capacity_)
        spill();
    if (buffer_.capacity() == 0)
        buffer_.reserve(run_capacity_);  // pages are committed only as they fill
    buffer_.push_back(activity);
    ++added_;
}

void ActivitySorter::spill() {
    if (!out_.file_)
        out_.file_ = std::make_shared<TemporaryFile>("sorting the activities");
    const std::vector<SortKey> keys = sorted_keys(buffer_);
    SortedActivities::Run run;
    run.begin = out_.runs_.empty() ? 0 : out_.runs_.back().end;
    run.next = run.begin;
    run.end = run.next + static_cast<std::int64_t>(keys.size());
    std::vector<Activity> block;
    block.reserve(kReadBlock);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        block.push_back(buffer_[keys[i].index]);
        if (block.size() == kReadBlock || i + 1 == keys.size()) {
            out_.file_->append(std::as_bytes(std::span(block)));
            block.clear();
        }
    }
    out_.runs_.push_back(std::move(run));
    buffer_.clear();
}

SortedActivities ActivitySorter::finish(OneRun one_run) && {
    if (!out_.file_ && one_run == OneRun::OnDisk && !buffer_.empty())
        spill();
    if (!out_.file_) {
        const std::vector<SortKey> keys = sorted_keys(buffer_);
        out_.memory_.reserve(keys.size());
        for (const SortKey& k : keys)
            out_.memory_.push_back(buffer_[k.index]);
        buffer_ = {};
        return std::move(out_);
    }
    if (!buffer_.empty())
        spill();
    buffer_ = {};
    return std::move(out_);
}

}  // namespace trainscope::profiler
