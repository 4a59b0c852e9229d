#include "profiler/analysis/StepApiCounts.hpp"

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <utility>

#include "profiler/analysis/AscendingRunsSort.hpp"

namespace trainscope::profiler {

namespace {

using ThreadKey = StepApiCountsAccumulator::ThreadKey;

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

// "cudaStreamSynchronize_v3020" -> "cudaStreamSynchronize".
std::string_view without_version(std::string_view name) {
    const std::size_t suffix = name.find("_v");
    return suffix == std::string_view::npos ? name : name.substr(0, suffix);
}

using ApiCall = StepApiCountsAccumulator::ApiCall;
using Range = StepApiCountsAccumulator::Range;

void add_call(const ApiCall& call, ApiCallCounts& counts) {
    if (!call.runtime) {
        return;
    }
    ++counts.runtime_calls;
    switch (call.call_class) {
        case RuntimeCallClass::allocation:
            ++counts.allocations;
            break;
        case RuntimeCallClass::free:
            ++counts.frees;
            break;
        case RuntimeCallClass::synchronization:
            ++counts.synchronizations;
            break;
        case RuntimeCallClass::memcpy:
            ++counts.memcpys;
            break;
        case RuntimeCallClass::other:
            break;
    }
}

}  // namespace

RuntimeCallClass classify_runtime_call(std::string_view name) {
    const std::string_view base = without_version(name);
    if (starts_with(base, "cudaMalloc") || base == "cudaHostAlloc") {
        return RuntimeCallClass::allocation;
    }
    if (starts_with(base, "cudaFree")) {
        return RuntimeCallClass::free;
    }
    if (starts_with(base, "cuda") && base.size() > 11 &&
        base.substr(base.size() - 11) == "Synchronize") {
        return RuntimeCallClass::synchronization;
    }
    if (starts_with(base, "cudaMemcpy")) {
        return RuntimeCallClass::memcpy;
    }
    return RuntimeCallClass::other;
}

bool has_runtime_api_records(const Trace& trace) {
    return std::any_of(trace.activities.begin(), trace.activities.end(),
                       [](const Activity& a) { return a.kind == ActivityKind::RuntimeApi; });
}

StepApiCountsAccumulator::StepApiCountsAccumulator(std::span<const Lane> lanes,
                                                   const StringTable& strings,
                                                   StepApiCountOptions options)
    : lanes_(lanes),
      strings_(&strings),
      options_(std::move(options)),
      class_of_name_(strings.size()) {}

void StepApiCountsAccumulator::add(const Activity& a, std::size_t index) {
    const Lane& lane = lanes_[a.lane];
    const ThreadKey key{lane.process, lane.stream_or_thread};
    if (a.kind == ActivityKind::NvtxRange) {
        if (lane.kind != LaneKind::Nvtx || lane.device >= 0)
            return;
        // Data-load and timed-window ranges per thread, to tell a step's staging from its
        // own calls and its timed part from the wait after it.
        const std::string& name = strings_->at(a.name);
        if (name == options_.step_range)
            steps_.push_back({index, key, a.start_ns, a.end_ns});
        else if (name == options_.data_range)
            data_ranges_[key].push_back({a.start_ns, a.end_ns});
        else if (name == options_.window_range)
            window_ranges_[key].push_back({a.start_ns, a.end_ns});
        return;
    }
    runtime_records_ = runtime_records_ || a.kind == ActivityKind::RuntimeApi;
    if (a.correlation != 0 && a.kind == ActivityKind::Kernel)
        kernel_correlations_.push_back(a.correlation);
    if (a.kind != ActivityKind::RuntimeApi && a.kind != ActivityKind::DriverApi)
        return;
    if (a.correlation != 0)
        api_correlations_.emplace_back(a.correlation, index);
    const bool runtime = a.kind == ActivityKind::RuntimeApi;
    RuntimeCallClass call_class = RuntimeCallClass::other;
    if (runtime) {
        // Classified once per name: a trace has millions of calls and a few dozen names.
        std::optional<RuntimeCallClass>& known = class_of_name_.at(a.name);
        if (!known)
            known = classify_runtime_call(strings_->at(a.name));
        call_class = *known;
    }
    calls_by_thread_[key].push_back({a.start_ns, a.correlation, runtime, call_class, index});
}

std::vector<StepApiCounts> StepApiCountsAccumulator::finish() && {
    if (steps_.empty())
        return {};
    // nsys stores some calls twice under one correlation id (cudaLaunchKernel and
    // cudaLaunchKernel_v7000): the first record of an id stands for the call. Sorted
    // vectors rather than hash sets: a trace of millions of launches keeps a fraction of
    // the memory.
    sort_ascending_runs(kernel_correlations_.begin(), kernel_correlations_.end(),
                        std::less<std::uint64_t>());
    sort_ascending_runs(api_correlations_.begin(), api_correlations_.end(),
                        std::less<std::pair<std::uint64_t, std::size_t>>());
    std::vector<std::size_t> repeated;  // indexes, ascending once sorted
    for (std::size_t k = 1; k < api_correlations_.size(); ++k) {
        if (api_correlations_[k].first == api_correlations_[k - 1].first)
            repeated.push_back(api_correlations_[k].second);
    }
    std::vector<std::pair<std::uint64_t, std::size_t>>().swap(api_correlations_);
    std::sort(repeated.begin(), repeated.end());
    const auto kernels_launched_by = [this](std::uint64_t correlation) {
        const auto [begin, end] =
            std::equal_range(kernel_correlations_.begin(), kernel_correlations_.end(), correlation);
        return static_cast<std::int64_t>(end - begin);
    };
    for (auto& [key, calls] : calls_by_thread_) {
        if (!repeated.empty()) {
            std::erase_if(calls, [&repeated](const ApiCall& c) {
                return std::binary_search(repeated.begin(), repeated.end(), c.index);
            });
        }
        std::sort(calls.begin(), calls.end(),
                  [](const ApiCall& x, const ApiCall& y) { return x.start_ns < y.start_ns; });
    }
    for (auto* by_thread : {&data_ranges_, &window_ranges_}) {
        for (auto& [key, ranges] : *by_thread) {
            std::sort(ranges.begin(), ranges.end(),
                      [](const Range& x, const Range& y) { return x.start_ns < y.start_ns; });
        }
    }

    std::vector<StepApiCounts> result;
    for (const StepRange& range : steps_) {
        StepApiCounts step;
        step.range_index = range.index;
        step.begin_ns = range.start_ns;
        step.end_ns = range.end_ns;
        const ThreadKey& key = range.thread;
        const auto calls = calls_by_thread_.find(key);
        if (calls == calls_by_thread_.end()) {
            result.push_back(step);
            continue;
        }
        // This thread's ranges of one kind, sorted by start (empty when it has none).
        static const std::vector<Range> no_ranges;
        const auto ranges_of = [&key](const std::map<ThreadKey, std::vector<Range>>& by_thread)
            -> const std::vector<Range>& {
            const auto it = by_thread.find(key);
            return it == by_thread.end() ? no_ranges : it->second;
        };
        const std::vector<Range>& data_of_thread = ranges_of(data_ranges_);
        const std::vector<Range>& windows_of_thread = ranges_of(window_ranges_);
        // Ranges of one kind on one thread never overlap: the last one starting at or
        // before t is the only candidate.
        const auto in_range = [](const std::vector<Range>& ranges, std::int64_t t) {
            const auto after = std::upper_bound(
                ranges.begin(), ranges.end(), t,
                [](std::int64_t time, const Range& r) { return time < r.start_ns; });
            return after != ranges.begin() && t < std::prev(after)->end_ns;
        };
        // A window starts inside the step: the first starting at or after the step's start.
        const auto window =
            std::lower_bound(windows_of_thread.begin(), windows_of_thread.end(), range.start_ns,
                             [](const Range& r, std::int64_t t) { return r.start_ns < t; });
        step.has_window = window != windows_of_thread.end() && window->start_ns < range.end_ns;
        auto call =
            std::lower_bound(calls->second.begin(), calls->second.end(), range.start_ns,
                             [](const ApiCall& c, std::int64_t t) { return c.start_ns < t; });
        for (; call != calls->second.end() && call->start_ns < range.end_ns; ++call) {
            const bool data = in_range(data_of_thread, call->start_ns);
            const std::int64_t launched =
                call->correlation != 0 ? kernels_launched_by(call->correlation) : 0;
            ApiCallCounts& counts = data ? step.data : step.step;
            add_call(*call, counts);
            counts.kernel_launches += launched;
            if (!data && in_range(windows_of_thread, call->start_ns)) {
                add_call(*call, step.window);
                step.window.kernel_launches += launched;
            }
        }
        result.push_back(step);
    }
    return result;
}

std::vector<StepApiCounts> count_api_calls_per_step(const Trace& trace,
                                                    const StepApiCountOptions& options) {
    // A trace without step ranges (most imported ones) has nothing to count: spare
    // gathering its millions of calls.
    const auto is_step = [&](const Activity& a) {
        if (a.kind != ActivityKind::NvtxRange)
            return false;
        const Lane& lane = trace.lanes.at(a.lane);
        return lane.kind == LaneKind::Nvtx && lane.device < 0 &&
               trace.strings.at(a.name) == options.step_range;
    };
    if (std::none_of(trace.activities.begin(), trace.activities.end(), is_step))
        return {};
    StepApiCountsAccumulator counts(trace.lanes, trace.strings, options);
    for (std::size_t i = 0; i < trace.activities.size(); ++i)
        counts.add(trace.activities[i], i);
    return std::move(counts).finish();
}

ApiCallSpread spread_of(const std::vector<StepApiCounts>& steps, std::size_t skip_first,
                        StepPart part) {
    ApiCallSpread spread;
    if (skip_first >= steps.size()) {
        return spread;
    }
    spread.steps = steps.size() - skip_first;
    const auto of = [&](std::int64_t ApiCallCounts::*field) {
        std::vector<std::int64_t> values;
        values.reserve(spread.steps);
        for (std::size_t i = skip_first; i < steps.size(); ++i) {
            const StepApiCounts& step = steps[i];
            const ApiCallCounts& counts = part == StepPart::data     ? step.data
                                          : part == StepPart::window ? step.window
                                                                     : step.step;
            values.push_back(counts.*field);
        }
        std::sort(values.begin(), values.end());
        const std::size_t n = values.size();
        CountSpread c;
        c.min = values.front();
        c.max = values.back();
        c.median = n % 2 == 1 ? static_cast<double>(values[n / 2])
                              : 0.5 * static_cast<double>(values[n / 2 - 1] + values[n / 2]);
        return c;
    };
    spread.allocations = of(&ApiCallCounts::allocations);
    spread.frees = of(&ApiCallCounts::frees);
    spread.synchronizations = of(&ApiCallCounts::synchronizations);
    spread.memcpys = of(&ApiCallCounts::memcpys);
    spread.runtime_calls = of(&ApiCallCounts::runtime_calls);
    spread.kernel_launches = of(&ApiCallCounts::kernel_launches);
    return spread;
}

}  // namespace trainscope::profiler
