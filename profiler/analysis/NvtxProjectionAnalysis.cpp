#include "profiler/analysis/NvtxProjectionAnalysis.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "profiler/analysis/AscendingRunsSort.hpp"
#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/IntervalSet.hpp"
#include "profiler/trace/TraceOrder.hpp"

namespace trainscope::profiler {

namespace {

using Accumulator = HostRangeProjectionAccumulator;
using ThreadKey = Accumulator::ThreadKey;
using LaunchedWork = Accumulator::LaunchedWork;
using ApiCall = Accumulator::ApiCall;

bool launch_before(const LaunchedWork& x, const LaunchedWork& y) {
    return std::tie(x.rank, x.correlation) < std::tie(y.rank, y.correlation);
}

constexpr std::size_t kNoRange = std::numeric_limits<std::size_t>::max();

// For each time of `times` (ascending), the innermost of one thread's `ranges` (by start
// and the longer first) with start <= t < end, or kNoRange; an owner is a position in
// `all`. Ranges of one thread nest, so the open ones form a stack.
std::vector<std::size_t> innermost_ranges(const std::vector<Accumulator::Range>& all,
                                          const std::vector<std::size_t>& ranges,
                                          const std::vector<std::int64_t>& times) {
    std::vector<std::size_t> owners(times.size(), kNoRange);
    std::vector<std::size_t> open;
    std::size_t next = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
        while (next < ranges.size() && all[ranges[next]].start_ns <= times[i])
            open.push_back(ranges[next++]);
        while (!open.empty() && all[open.back()].end_ns <= times[i])
            open.pop_back();
        if (!open.empty())
            owners[i] = open.back();
    }
    return owners;
}

// Each API call's and host op's innermost projected range (a position in `ranges`): what
// the range launched or ran itself, without what its nested projected ranges did.
struct OwnedWork {
    std::unordered_map<std::size_t, std::vector<ApiCall>> calls;
    std::unordered_map<std::size_t, std::vector<Accumulator::Op>> host_ops;
};

OwnedWork innermost_attribution(
    const std::vector<Accumulator::Range>& ranges,
    const std::map<ThreadKey, std::vector<ApiCall>>& calls_by_thread,
    const std::map<ThreadKey, std::vector<Accumulator::Op>>& ops_by_thread) {
    std::map<ThreadKey, std::vector<std::size_t>> ranges_by_thread;
    for (std::size_t i = 0; i < ranges.size(); ++i)
        ranges_by_thread[ranges[i].thread].push_back(i);
    OwnedWork owned;
    for (auto& [key, list] : ranges_by_thread) {
        std::sort(list.begin(), list.end(), [&](std::size_t x, std::size_t y) {
            return starts_before(ranges[x], ranges[y]);
        });
        if (auto it = calls_by_thread.find(key); it != calls_by_thread.end()) {
            std::vector<std::int64_t> times;
            for (const ApiCall& c : it->second)
                times.push_back(c.start_ns);
            const auto owners = innermost_ranges(ranges, list, times);
            for (std::size_t c = 0; c < owners.size(); ++c) {
                if (owners[c] != kNoRange)
                    owned.calls[owners[c]].push_back(it->second[c]);
            }
        }
        if (auto it = ops_by_thread.find(key); it != ops_by_thread.end()) {
            std::vector<std::int64_t> times;
            for (const Accumulator::Op& op : it->second)
                times.push_back(op.start_ns);
            const auto owners = innermost_ranges(ranges, list, times);
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

bool is_host_nvtx_range(std::span<const Lane> lanes, const Activity& a) {
    if (a.kind != ActivityKind::NvtxRange)
        return false;
    const Lane& lane = lanes[a.lane];
    return lane.kind == LaneKind::Nvtx && lane.device < 0;
}

}  // namespace

HostRangeProjectionAccumulator::HostRangeProjectionAccumulator(
    std::span<const Lane> lanes, std::function<bool(const Activity&)> project, bool host_op_trace)
    : lanes_(lanes), project_(std::move(project)), host_op_trace_(host_op_trace) {}

HostRangeProjectionAccumulator HostRangeProjectionAccumulator::nvtx(std::span<const Lane> lanes,
                                                                    bool host_op_trace) {
    return HostRangeProjectionAccumulator(
        lanes, [lanes](const Activity& a) { return is_host_nvtx_range(lanes, a); }, host_op_trace);
}

void HostRangeProjectionAccumulator::add(const Activity& a, std::size_t index) {
    const Lane& lane = lanes_[a.lane];
    const ThreadKey thread{lane.rank, lane.process, lane.stream_or_thread};
    if (project_(a))
        ranges_.push_back({index, thread, a.name, a.depth, a.start_ns, a.end_ns});
    if (host_op_trace_ && a.kind == ActivityKind::HostOp)
        ops_by_thread_[thread].push_back({a.start_ns, a.end_ns});
    if (a.correlation == 0)
        return;
    if (a.kind == ActivityKind::RuntimeApi || a.kind == ActivityKind::DriverApi) {
        calls_by_thread_[thread].push_back({a.start_ns, a.correlation});
    } else if (is_gpu_work(a.kind)) {
        launched_work_.push_back({lane.rank, a.kind == ActivityKind::Kernel, a.correlation,
                                  Interval{a.start_ns, a.end_ns}});
    }
}

std::vector<NvtxRangeGpuTime> HostRangeProjectionAccumulator::finish(const StringTable& strings,
                                                                     Attribution attribution) && {
    if (ranges_.empty())
        return {};
    // A launch's work in any order: its sums do not depend on it, and its intervals are
    // merged.
    sort_ascending_runs(launched_work_.begin(), launched_work_.end(), launch_before);
    for (auto& [key, calls] : calls_by_thread_) {
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
            const auto [begin, end] = std::equal_range(launched_work_.begin(), launched_work_.end(),
                                                       probe, launch_before);
            call.first = static_cast<std::uint32_t>(begin - launched_work_.begin());
            call.count = static_cast<std::uint32_t>(end - begin);
        }
    }
    for (auto& [key, list] : ops_by_thread_) {
        std::stable_sort(list.begin(), list.end(),
                         [](const Op& x, const Op& y) { return x.start_ns < y.start_ns; });
    }

    const bool innermost = attribution == Attribution::innermost;
    const OwnedWork owned =
        innermost ? innermost_attribution(ranges_, calls_by_thread_, ops_by_thread_) : OwnedWork{};

    std::vector<NvtxRangeGpuTime> result;
    result.reserve(ranges_.size());
    const std::vector<ApiCall> no_calls;
    const std::vector<Op> no_ops;
    std::vector<ApiCall> calls;
    for (std::size_t i = 0; i < ranges_.size(); ++i) {
        const Range& range = ranges_[i];
        NvtxRangeGpuTime r;
        r.range_index = range.index;
        r.rank = std::get<0>(range.thread);
        r.name = strings.at(range.name);
        r.depth = range.depth;
        r.host_begin_ns = range.start_ns;
        r.host_end_ns = range.end_ns;

        std::vector<Op> ops;
        calls.clear();
        if (innermost) {
            ops = find_or_empty(owned.host_ops, i, no_ops);
            for (const ApiCall& c : find_or_empty(owned.calls, i, no_calls)) {
                if (c.count > 0)
                    calls.push_back(c);
            }
        } else {
            if (auto it = ops_by_thread_.find(range.thread); it != ops_by_thread_.end()) {
                const auto& list = it->second;
                auto op =
                    std::lower_bound(list.begin(), list.end(), range.start_ns,
                                     [](const Op& x, std::int64_t t) { return x.start_ns < t; });
                for (; op != list.end() && op->start_ns < range.end_ns; ++op)
                    ops.push_back(*op);
            }
            if (auto it = calls_by_thread_.find(range.thread); it != calls_by_thread_.end()) {
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
        for (const Op& op : ops) {
            ++r.kernel_count;
            r.kernel_ns += op.end_ns - op.start_ns;
            launched.push_back({op.start_ns, op.end_ns});
        }
        // One launch can appear as several API records with the same correlation id
        // (nsys stores cudaLaunchKernel and cudaLaunchKernel_v7000): count it once.
        std::sort(calls.begin(), calls.end(),
                  [](const ApiCall& x, const ApiCall& y) { return x.first < y.first; });
        for (std::size_t c = 0; c < calls.size(); ++c) {
            if (c > 0 && calls[c].first == calls[c - 1].first)
                continue;
            for (std::uint32_t w = calls[c].first; w < calls[c].first + calls[c].count; ++w) {
                const LaunchedWork& work = launched_work_[w];
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

std::vector<NvtxRangeGpuTime> project_nvtx_ranges_to_gpu(const Trace& trace) {
    return project_host_ranges_to_gpu(
        trace, [&trace](const Activity& a) { return is_host_nvtx_range(trace.lanes, a); });
}

std::vector<NvtxRangeGpuTime> project_host_ranges_to_gpu(
    const Trace& trace, const std::function<bool(const Activity&)>& project,
    Attribution attribution) {
    // Nothing to project (a CUDA run's op ranges when it recorded none): spare collecting
    // and sorting the launches.
    if (std::none_of(trace.activities.begin(), trace.activities.end(), project))
        return {};
    HostRangeProjectionAccumulator projection(trace.lanes, project, is_host_op_trace(trace));
    for (std::size_t i = 0; i < trace.activities.size(); ++i)
        projection.add(trace.activities[i], i);
    return std::move(projection).finish(trace.strings, attribution);
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
