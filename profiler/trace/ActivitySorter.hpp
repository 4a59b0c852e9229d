#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "profiler/trace/Activity.hpp"
#include "profiler/trace/ActivityStream.hpp"
#include "profiler/trace/TemporaryFile.hpp"

namespace trainscope::profiler {

// Activities in the order Trace::sort gives (lane, start, the longer first, then as
// added). Made by ActivitySorter. Runs on disk hold a read block each only while they are
// read: from the first next() after finish or rewind until they are passed; the blocks
// together stay within a few MiB however many runs there are.
class SortedActivities final : public ActivityStream {
  public:
    SortedActivities();  // none
    SortedActivities(SortedActivities&&) noexcept;
    SortedActivities& operator=(SortedActivities&&) noexcept;
    ~SortedActivities() override;

    bool next(Activity& out) override;
    void rewind() override;
    // Runs on disk: a reader of the same file (pread, so both read at once). Activities
    // held in memory (a small trace): none.
    [[nodiscard]] std::unique_ptr<ActivityStream> another_reader() const override;

  private:
    friend class ActivitySorter;
    struct Run;
    bool next_from_runs(Activity& out);
    void refill(Run& run);
    void start_runs();
    void release_blocks();
    [[nodiscard]] bool run_after(std::uint32_t x, std::uint32_t y) const;

    std::vector<Activity> memory_;  // the one run, when everything fitted in memory
    std::size_t memory_at_ = 0;
    bool started_ = false;  // the runs' first blocks read and heaped
    // The sorted runs, one after another; shared by another_reader's readers.
    std::shared_ptr<TemporaryFile> file_;
    std::vector<Run> runs_;
    std::vector<std::uint32_t> heap_;  // runs by their next activity, the first on top
    std::size_t read_block_ = 0;       // activities a run reads at a time
};

// Sorts activities as Trace::sort does in bounded memory: runs of `run_capacity`
// activities are sorted in memory and, when there is more than one, written one after
// another to an unnamed temporary file ($TMPDIR, else /tmp; gone when closed) and merged
// while read. Memory: the run buffer while adding, a small buffer per run while reading.
class ActivitySorter {
  public:
    // Where finish leaves activities that fit one run.
    enum class OneRun {
        InMemory,  // no file: a small trace read on its own
        OnDisk,    // one of many held at once (a job's ranks): memory stays one buffer
    };

    // 256 Ki activities: a 22 MiB buffer, and a 1 GB Kineto file in six runs.
    static constexpr std::size_t kDefaultRunCapacity = std::size_t{1} << 18;

    explicit ActivitySorter(std::size_t run_capacity = kDefaultRunCapacity);
    ActivitySorter(ActivitySorter&&) noexcept;
    ActivitySorter& operator=(ActivitySorter&&) noexcept;
    ~ActivitySorter();

    void add(const Activity& activity);
    [[nodiscard]] std::int64_t size() const { return added_; }
    // Ends adding. Throws std::system_error when the temporary file cannot be written.
    SortedActivities finish(OneRun one_run = OneRun::InMemory) &&;

  private:
    void spill();

    std::size_t run_capacity_;
    std::vector<Activity> buffer_;
    std::int64_t added_ = 0;
    SortedActivities out_;
};

// How a streaming importer sorts a file's activities (stream_kineto_trace,
// stream_nsys_sqlite).
struct StreamOptions {
    // Activities sorted in memory at a time (tests make it small).
    std::size_t run_capacity = ActivitySorter::kDefaultRunCapacity;
    // InMemory: activities that fit one run stay in memory. OnDisk for a file of many
    // held at once (a job's ranks), so that memory does not grow with their number.
    ActivitySorter::OneRun one_run = ActivitySorter::OneRun::InMemory;
    // Kineto only: threads that parse the events (simdjson and the flatten) beside the
    // one that reads and the caller's, which builds. 0 or 1: the reading thread parses too
    // (a job's ranks, each already on a core of its own). The trace is the same for any
    // number. An Nsight Systems export is read by SQLite on the caller's thread.
    std::size_t parse_threads = 0;
};

}  // namespace trainscope::profiler
