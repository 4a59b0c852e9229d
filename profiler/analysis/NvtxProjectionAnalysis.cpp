#include "profiler/analysis/NvtxProjectionAnalysis.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

#include "profiler/analysis/AscendingRunsSort.hpp"
#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/trace/TraceOrder.hpp"

namespace trainscope::profiler {

namespace {

// A host thread of one rank: two ranks on two nodes may share a pid and a thread id.
using ThreadKey = std::tuple<std::int32_t, std::int64_t, std::int64_t>;  // (rank, pid, tid)

ThreadKey thread_of(const Trace& trace, const Activity& a) {
    const Lane& lane = trace.lanes.at(a.lane);
    return {lane.rank, lane.process, lane.stream_or_thread};
}

// The GPU work of every launch, sorted by (rank, correlation): correlation ids count per
// process, so a job's ranks reuse them. Each API call finds its launch's work once, by
// binary search, and a range then sums the work of the calls inside it; a hash map of
// every work item cost more memory and a lookup per range a call lies in.
struct LaunchedWork {
    std::int32_t rank = 0;
    bool kernel = false;  // else a copy or set
    std::uint64_t correlation = 0;
    Interval interval;
};

bool launch_before(const LaunchedWork& x, const LaunchedWork& y) {
    return std::tie(x.rank, x.correlation) < std::tie(y.rank, y.correlation);
}

// A call's launched work: [first, first + count) of the sorted LaunchedWork. `first` of
// a call with work (count > 0) is unique to its launch, so it stands for the (rank,
// correlation) key when a range's calls are deduplicated; calls without work are left out.
struct ApiCall {
    std::int64_t start_ns = 0;
    std::uint64_t correlation = 0;
    std::uint32_t first = 0;
    std::uint32_t count = 0;
};

constexpr std::size_t kNoRange = std::numeric_limits<std::size_t>::max();

// A CPU-backend trace launches nothing: its ops run on the thread that pushed the
// range, so the ops that start inside a range on that thread are the range's device work.
std::map<ThreadKey, std::vector<std::size_t>> host_ops_by_thread(const Trace& trace) {
    std::map<ThreadKey, std::vector<std::size_t>> ops;
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& a = trace.activities[i];
        if (a.kind == ActivityKind::HostOp)
            ops[thread_of(trace, a)].push_back(i);
    }
    for (auto& [key, list] : ops) {
        std::stable_sort(list.begin(), list.end(), [&](std::size_t x, std::size_t y) {
            return trace.activities[x].start_ns < trace.activities[y].start_ns;
        });
    }
    return ops;
}

// For each time of `times` (ascending), the innermost of one thread's `ranges` (indices
// into trace.activities, by start and the longer first) with start <= t < end, or
// kNoRange. Ranges of one thread nest, so the open ones form a stack.
std::vector<std::size_t> innermost_ranges(const Trace& trace,
                                          const std::vector<std::size_t>& ranges,
                                          const std::vector<std::int64_t>& times) {
    std::vector<std::size_t> owners(times.size(), kNoRange);
    std::vector<std::size_t> open;
    std::size_t next = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
        while (next < ranges.size() && trace.activities[ranges[next]].start_ns <= times[i])
            open.push_back(ranges[next++]);
        while (!open.empty() && trace.activities[open.back()].end_ns <= times[i])
            open.pop_back();
        if (!open.empty())
            owners[i] = open.back();
    }
    return owners;
}

// Each API call's and host op's innermost projected range: what the range launched or ran
// itself, without what its nested projected ranges did.
struct OwnedWork {
    std::unordered_map<std::size_t, std::vector<ApiCall>> calls;
    std::unordered_map<std::size_t, std::vector<std::size_t>> host_ops;
};

OwnedWork innermost_attribution(
    const Trace& trace, const std::vector<std::size_t>& picked,
    const std::map<ThreadKey, std::vector<ApiCall>>& calls_by_thread,
    const std::map<ThreadKey, std::vector<std::size_t>>& ops_by_thread) {
    std::map<ThreadKey, std::vector<std::size_t>> ranges_by_thread;
    for (const std::size_t i : picked)
        ranges_by_thread[thread_of(trace, trace.activities[i])].push_back(i);
    OwnedWork owned;
    for (auto& [key, ranges] : ranges_by_thread) {
        std::sort(ranges.begin(), ranges.end(), [&](std::size_t x, std::size_t y) {
            return starts_before(trace.activities[x], trace.activities[y]);
        });
        if (auto it = calls_by_thread.find(key); it != calls_by_thread.end()) {
            std::vector<std::int64_t> times;
            for (const ApiCall& c : it->second)
                times.push_back(c.start_ns);
            const auto owners = innermost_ranges(trace, ranges, times);
            for (std::size_t c = 0; c < owners.size(); ++c) {
                if (owners[c] != kNoRange)
                    owned.calls[owners[c]].push_back(it->second[c]);
            }
        }
        if (auto it = ops_by_thread.find(key); it != ops_by_thread.end()) {
            std::vector<std::int64_t> times;
            for (const std::size_t op : it->second)
                times.push_back(trace.activities[op].start_ns);
            const auto owners = innermost_ranges(trace, ranges, times);
            for (std::size_t o = 0; o < owners.size(); ++o) {
                if (owners[o] != kNoRange)
                    owned.host_ops[owners[o]].push_back(it->second[o]);
            }
        }
    }
    return owned;
}

template <class Map, class Value>
const Value& find_or_empty(const Map& map, std::size_t key, const Value& empty) {
    const auto it = map.find(key);
    return it == map.end() ? empty : it->second;
}

}  // namespace

std::vector<NvtxRangeGpuTime> project_nvtx_ranges_to_gpu(const Trace& trace) {
    return project_host_ranges_to_gpu(trace, [&trace](const Activity& a) {
        if (a.kind != ActivityKind::NvtxRange)
            return false;
        const Lane& lane = trace.lanes.at(a.lane);
        return lane.kind == LaneKind::Nvtx && lane.device < 0;
    });
}

std::vector<NvtxRangeGpuTime> project_host_ranges_to_gpu(
    const Trace& trace, const std::function<bool(const Activity&)>& project,
    Attribution attribution) {
    std::vector<std::size_t> picked;
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        if (project(trace.activities[i]))
            picked.push_back(i);
    }
    // Nothing to project (a CUDA run's op ranges when it recorded none): spare collecting
    // and sorting the launches.
    if (picked.empty())
        return {};
    // API calls per host thread, sorted by start, to find those inside a range quickly.
    std::map<ThreadKey, std::vector<ApiCall>> calls_by_thread;
    std::vector<LaunchedWork> launched_work;
    for (const Activity& a : trace.activities) {
        if (a.correlation == 0)
            continue;
        if (a.kind == ActivityKind::RuntimeApi || a.kind == ActivityKind::DriverApi) {
            calls_by_thread[thread_of(trace, a)].push_back({a.start_ns, a.correlation});
        } else if (is_gpu_work(a.kind)) {
            launched_work.push_back({trace.lanes.at(a.lane).rank, a.kind == ActivityKind::Kernel,
                                     a.correlation, Interval{a.start_ns, a.end_ns}});
        }
    }
    // A launch's work in any order: its sums do not depend on it, and its intervals are
    // merged.
    sort_ascending_runs(launched_work.begin(), launched_work.end(), launch_before);
    for (auto& [key, calls] : calls_by_thread) {
        // A thread's calls on one lane are in trace order already (by start).
        const auto by_start = [](const ApiCall& x, const ApiCall& y) {
            return x.start_ns < y.start_ns;
        };
        if (!std::is_sorted(calls.begin(), calls.end(), by_start))
            std::stable_sort(calls.begin(), calls.end(), by_start);
        LaunchedWork probe;
        probe.rank = std::get<0>(key);
        for (ApiCall& call : calls) {
            probe.correlation = call.correlation;
            const auto [begin, end] =
                std::equal_range(launched_work.begin(), launched_work.end(), probe, launch_before);
            call.first = static_cast<std::uint32_t>(begin - launched_work.begin());
            call.count = static_cast<std::uint32_t>(end - begin);
        }
    }

    const bool host_op_trace = is_host_op_trace(trace);
    const auto ops_by_thread =
        host_op_trace ? host_ops_by_thread(trace) : std::map<ThreadKey, std::vector<std::size_t>>{};
    const bool innermost = attribution == Attribution::innermost;
    const OwnedWork owned =
        innermost ? innermost_attribution(trace, picked, calls_by_thread, ops_by_thread)
                  : OwnedWork{};

    std::vector<NvtxRangeGpuTime> result;
    result.reserve(picked.size());
    const std::vector<ApiCall> no_calls;
    const std::vector<std::size_t> no_ops;
    std::vector<ApiCall> calls;
    for (const std::size_t i : picked) {
        const Activity& range = trace.activities[i];
        const ThreadKey thread = thread_of(trace, range);

        NvtxRangeGpuTime r;
        r.range_index = i;
        r.rank = std::get<0>(thread);
        r.name = trace.strings.at(range.name);
        r.depth = range.depth;
        r.host_begin_ns = range.start_ns;
        r.host_end_ns = range.end_ns;

        std::vector<std::size_t> ops;
        calls.clear();
        if (innermost) {
            ops = find_or_empty(owned.host_ops, i, no_ops);
            for (const ApiCall& c : find_or_empty(owned.calls, i, no_calls)) {
                if (c.count > 0)
                    calls.push_back(c);
            }
        } else {
            if (auto it = ops_by_thread.find(thread); it != ops_by_thread.end()) {
                const auto& list = it->second;
                auto op = std::lower_bound(list.begin(), list.end(), range.start_ns,
                                           [&](std::size_t x, std::int64_t t) {
                                               return trace.activities[x].start_ns < t;
                                           });
                for (; op != list.end() && trace.activities[*op].start_ns < range.end_ns; ++op)
                    ops.push_back(*op);
            }
            if (auto it = calls_by_thread.find(thread); it != calls_by_thread.end()) {
                const auto& thread_calls = it->second;
                auto c = std::lower_bound(
                    thread_calls.begin(), thread_calls.end(), range.start_ns,
                    [](const ApiCall& call, std::int64_t t) { return call.start_ns < t; });
                for (; c != thread_calls.end() && c->start_ns < range.end_ns; ++c) {
                    if (c->count > 0)
                        calls.push_back(*c);
                }
            }
        }

        std::vector<Interval> launched;
        for (const std::size_t op : ops) {
            const Activity& a = trace.activities[op];
            ++r.kernel_count;
            r.kernel_ns += a.duration_ns();
            launched.push_back({a.start_ns, a.end_ns});
        }
        // One launch can appear as several API records with the same correlation id
        // (nsys stores cudaLaunchKernel and cudaLaunchKernel_v7000): count it once.
        std::sort(calls.begin(), calls.end(),
                  [](const ApiCall& x, const ApiCall& y) { return x.first < y.first; });
        for (std::size_t c = 0; c < calls.size(); ++c) {
            if (c > 0 && calls[c].first == calls[c - 1].first)
                continue;
            for (std::uint32_t w = calls[c].first; w < calls[c].first + calls[c].count; ++w) {
                const LaunchedWork& work = launched_work[w];
                if (work.kernel) {
                    ++r.kernel_count;
                    r.kernel_ns += work.interval.length_ns();
                } else {
                    ++r.copy_count;
                    r.copy_ns += work.interval.length_ns();
                }
                launched.push_back(work.interval);
            }
        }
        const auto merged = merge_intervals(std::move(launched));
        r.gpu_busy_ns = total_length_ns(merged);
        if (!merged.empty()) {
            r.gpu_begin_ns = merged.front().begin_ns;
            r.gpu_end_ns = merged.back().end_ns;
        }
        result.push_back(std::move(r));
    }
    return result;
}

std::vector<NvtxNameTotals> total_nvtx_ranges_by_name(const std::vector<NvtxRangeGpuTime>& ranges) {
    std::map<std::string, NvtxNameTotals> by_name;
    for (const NvtxRangeGpuTime& r : ranges) {
        NvtxNameTotals& t = by_name[r.name];
        t.name = r.name;
        ++t.count;
        t.host_ns += r.host_end_ns - r.host_begin_ns;
        t.kernel_count += r.kernel_count;
        t.kernel_ns += r.kernel_ns;
        t.copy_count += r.copy_count;
        t.copy_ns += r.copy_ns;
        t.gpu_busy_ns += r.gpu_busy_ns;
    }
    std::vector<NvtxNameTotals> out;
    out.reserve(by_name.size());
    for (auto& [name, totals] : by_name)
        out.push_back(std::move(totals));
    std::stable_sort(out.begin(), out.end(), [](const NvtxNameTotals& a, const NvtxNameTotals& b) {
        return a.host_ns > b.host_ns;
    });
    return out;
}

}  // namespace trainscope::profiler
