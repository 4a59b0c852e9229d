#include "profiler/analysis/NvtxProjectionAnalysis.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/HostOpsAsWork.hpp"
#include "profiler/analysis/IntervalSet.hpp"

namespace trainscope::profiler {

namespace {

using ThreadKey = std::pair<std::int64_t, std::int64_t>;  // (process, thread)

struct ApiCall {
    std::int64_t start_ns = 0;
    std::uint64_t correlation = 0;
};

// A CPU-backend trace launches nothing: its ops run on the thread that pushed the
// range, so the ops that start inside a range on that thread are the range's device work.
std::map<ThreadKey, std::vector<std::size_t>> host_ops_by_thread(const Trace& trace) {
    std::map<ThreadKey, std::vector<std::size_t>> ops;
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& a = trace.activities[i];
        if (a.kind != ActivityKind::HostOp)
            continue;
        const Lane& lane = trace.lanes.at(a.lane);
        ops[{lane.process, lane.stream_or_thread}].push_back(i);
    }
    for (auto& [key, list] : ops) {
        std::stable_sort(list.begin(), list.end(), [&](std::size_t x, std::size_t y) {
            return trace.activities[x].start_ns < trace.activities[y].start_ns;
        });
    }
    return ops;
}

void add_ops_inside(const Trace& trace, const std::vector<std::size_t>& ops, const Activity& range,
                    NvtxRangeGpuTime& r, std::vector<Interval>& work) {
    auto first = std::lower_bound(
        ops.begin(), ops.end(), range.start_ns,
        [&](std::size_t i, std::int64_t t) { return trace.activities[i].start_ns < t; });
    for (auto op = first; op != ops.end() && trace.activities[*op].start_ns < range.end_ns; ++op) {
        const Activity& a = trace.activities[*op];
        ++r.kernel_count;
        r.kernel_ns += a.duration_ns();
        work.push_back({a.start_ns, a.end_ns});
    }
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
    const Trace& trace, const std::function<bool(const Activity&)>& project) {
    // API calls per host thread, sorted by start, to find those inside a range quickly.
    std::map<ThreadKey, std::vector<ApiCall>> calls_by_thread;
    std::unordered_multimap<std::uint64_t, std::size_t> gpu_work_by_correlation;
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& a = trace.activities[i];
        if (a.correlation == 0)
            continue;
        if (a.kind == ActivityKind::RuntimeApi || a.kind == ActivityKind::DriverApi) {
            const Lane& lane = trace.lanes.at(a.lane);
            calls_by_thread[{lane.process, lane.stream_or_thread}].push_back(
                {a.start_ns, a.correlation});
        } else if (is_gpu_work(a.kind)) {
            gpu_work_by_correlation.emplace(a.correlation, i);
        }
    }
    for (auto& [key, calls] : calls_by_thread) {
        std::sort(calls.begin(), calls.end(),
                  [](const ApiCall& x, const ApiCall& y) { return x.start_ns < y.start_ns; });
    }

    const bool host_op_trace = is_host_op_trace(trace);
    const auto ops_by_thread =
        host_op_trace ? host_ops_by_thread(trace) : std::map<ThreadKey, std::vector<std::size_t>>{};

    std::vector<NvtxRangeGpuTime> result;
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
        const Activity& range = trace.activities[i];
        if (!project(range))
            continue;
        const Lane& lane = trace.lanes.at(range.lane);

        NvtxRangeGpuTime r;
        r.range_index = i;
        r.name = trace.strings.at(range.name);
        r.depth = range.depth;
        r.host_begin_ns = range.start_ns;
        r.host_end_ns = range.end_ns;
        std::vector<Interval> launched;
        if (auto ops = ops_by_thread.find({lane.process, lane.stream_or_thread});
            ops != ops_by_thread.end()) {
            add_ops_inside(trace, ops->second, range, r, launched);
        }
        if (auto it = calls_by_thread.find({lane.process, lane.stream_or_thread});
            it != calls_by_thread.end()) {
            const auto& calls = it->second;
            auto first =
                std::lower_bound(calls.begin(), calls.end(), range.start_ns,
                                 [](const ApiCall& c, std::int64_t t) { return c.start_ns < t; });
            // One launch can appear as several API records with the same correlation id
            // (nsys stores cudaLaunchKernel and cudaLaunchKernel_v7000): count it once.
            std::vector<std::uint64_t> correlations;
            for (auto c = first; c != calls.end() && c->start_ns < range.end_ns; ++c) {
                correlations.push_back(c->correlation);
            }
            std::sort(correlations.begin(), correlations.end());
            correlations.erase(std::unique(correlations.begin(), correlations.end()),
                               correlations.end());
            for (const std::uint64_t correlation : correlations) {
                auto [begin, end] = gpu_work_by_correlation.equal_range(correlation);
                for (auto w = begin; w != end; ++w) {
                    const Activity& work = trace.activities[w->second];
                    if (work.kind == ActivityKind::Kernel) {
                        ++r.kernel_count;
                        r.kernel_ns += work.duration_ns();
                    } else {
                        ++r.copy_count;
                        r.copy_ns += work.duration_ns();
                    }
                    launched.push_back({work.start_ns, work.end_ns});
                }
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
