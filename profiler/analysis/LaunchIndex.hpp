#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "profiler/analysis/AscendingRunsSort.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// True for the calls that launch GPU work: runtime and driver API calls. With a correlation
// other than 0 such a call is a launch the index finds.
bool is_launch_call(ActivityKind kind);

// The launch rule, its one implementation: GPU work's launch is the first runtime or driver
// call in trace order with the work's rank and correlation id (CUPTI's correlationId,
// Kineto's "correlation" argument, which the ac2g flow events repeat). Correlation ids are
// a process's own, so in a job two ranks reuse them: a call never launches another rank's
// work. Correlation 0 means "none" and never joins. Built one activity at a time in trace
// order (an analysis that streams a run keeps only this); each launch carries a Value the
// caller chooses (an index into the trace, a start).
template <class Value>
class LaunchJoin {
  public:
    // `a` in trace order with its lane's rank; kept only when it is a launch.
    void add(std::int32_t rank, const Activity& a, Value value) {
        if (is_launch_call(a.kind) && a.correlation != 0)
            of_rank(rank).push_back({a.correlation, value});
    }
    // A host call kept whatever its kind, for the joins that follow Holistic Trace
    // Analysis in taking any host event with the id (analyze --mode hta, the exposed
    // communication per step); correlation 0 is never kept.
    void add_call(std::int32_t rank, std::uint64_t correlation, Value value) {
        if (correlation != 0)
            of_rank(rank).push_back({correlation, value});
    }
    // After the last add, before the first find.
    void seal() {
        std::sort(ranks_.begin(), ranks_.end(),
                  [](const RankLaunches& x, const RankLaunches& y) { return x.rank < y.rank; });
        // Stable: within a correlation the first call in trace order stays first.
        for (RankLaunches& r : ranks_) {
            sort_ascending_runs(
                r.launches.begin(), r.launches.end(),
                [](const Entry& x, const Entry& y) { return x.correlation < y.correlation; });
        }
    }
    // The launch's value; null when the work has none in the trace.
    [[nodiscard]] const Value* find(std::int32_t rank, std::uint64_t correlation) const {
        if (correlation == 0)
            return nullptr;
        const auto r = std::lower_bound(
            ranks_.begin(), ranks_.end(), rank,
            [](const RankLaunches& x, std::int32_t wanted) { return x.rank < wanted; });
        if (r == ranks_.end() || r->rank != rank)
            return nullptr;
        const auto it = std::lower_bound(
            r->launches.begin(), r->launches.end(), correlation,
            [](const Entry& e, std::uint64_t wanted) { return e.correlation < wanted; });
        if (it != r->launches.end() && it->correlation == correlation)
            return &it->value;
        return nullptr;
    }

  private:
    struct Entry {
        std::uint64_t correlation = 0;
        Value value{};
    };
    // One sorted vector per rank rather than the rank in every entry: a one-rank trace's
    // launches take 16 bytes each, half the memory of a hash map of millions of launches.
    struct RankLaunches {
        std::int32_t rank = 0;
        std::vector<Entry> launches;
    };
    std::vector<Entry>& of_rank(std::int32_t rank) {
        // Trace order runs lane by lane, so the rank changes once per lane at most.
        if (last_ < ranks_.size() && ranks_[last_].rank == rank)
            return ranks_[last_].launches;
        last_ = 0;
        while (last_ < ranks_.size() && ranks_[last_].rank != rank)
            ++last_;
        if (last_ == ranks_.size())
            ranks_.push_back({rank, {}});
        return ranks_[last_].launches;
    }
    std::vector<RankLaunches> ranks_;
    std::size_t last_ = 0;
};

// Each lane's rank, by LaneId: where an activity's lane says which rank's launches it joins.
std::vector<std::int32_t> lane_ranks(std::span<const Lane> lanes);

// The launch join over a whole trace: each GPU work item's launching call by its index.
class LaunchIndex {
  public:
    explicit LaunchIndex(const Trace& trace);

    // Index into trace.activities of the API call that launched `work` (an activity of the
    // same trace).
    [[nodiscard]] std::optional<std::size_t> launch_of(const Activity& work) const;

  private:
    std::vector<std::int32_t> lane_ranks_;
    LaunchJoin<std::size_t> launches_;
};

}  // namespace trainscope::profiler
