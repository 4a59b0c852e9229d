#include "reports/memory/MemorySeries.hpp"

#include <algorithm>
#include <set>

namespace trainscope::reports {

std::string memory_series_name(std::string_view tensor_class) {
    return std::string(kMemorySeriesPrefix) + std::string(tensor_class);
}

bool is_memory_series(const profiler::CounterSeries& series, std::string* tensor_class) {
    if (series.name.size() <= kMemorySeriesPrefix.size() ||
        series.name.compare(0, kMemorySeriesPrefix.size(), kMemorySeriesPrefix) != 0)
        return false;
    if (tensor_class != nullptr)
        *tensor_class = series.name.substr(kMemorySeriesPrefix.size());
    return true;
}

double MemoryStack::total_at(std::size_t i) const {
    double total = 0.0;
    for (const auto& values : bytes)
        total += values[i];
    return total;
}

MemoryStack memory_stack(const profiler::Trace& trace, std::int32_t rank) {
    MemoryStack stack;
    stack.rank = rank;
    std::vector<const profiler::CounterSeries*> series;
    for (const profiler::CounterSeries& s : trace.counters) {
        std::string tensor_class;
        if (s.rank != rank || !is_memory_series(s, &tensor_class))
            continue;
        series.push_back(&s);
        stack.classes.push_back(std::move(tensor_class));
        for (const profiler::CounterSample& sample : s.samples)
            stack.t_ns.push_back(sample.t_ns);
    }
    std::sort(stack.t_ns.begin(), stack.t_ns.end());
    stack.t_ns.erase(std::unique(stack.t_ns.begin(), stack.t_ns.end()), stack.t_ns.end());
    stack.bytes.assign(series.size(), std::vector<double>(stack.t_ns.size(), 0.0));
    for (std::size_t c = 0; c < series.size(); ++c) {
        const auto& samples = series[c]->samples;
        std::size_t next = 0;
        double value = 0.0;  // before its first sample a class holds nothing
        for (std::size_t i = 0; i < stack.t_ns.size(); ++i) {
            // Several changes at one nanosecond: the last one stands.
            while (next < samples.size() && samples[next].t_ns <= stack.t_ns[i])
                value = samples[next++].value;
            stack.bytes[c][i] = value;
        }
    }
    for (std::size_t i = 0; i < stack.t_ns.size(); ++i)
        stack.peak_total = std::max(stack.peak_total, stack.total_at(i));
    return stack;
}

std::vector<MemoryStack> memory_stacks(const profiler::Trace& trace) {
    std::set<std::int32_t> ranks;
    for (const profiler::CounterSeries& s : trace.counters) {
        if (is_memory_series(s))
            ranks.insert(s.rank);
    }
    std::vector<MemoryStack> stacks;
    for (const std::int32_t rank : ranks)
        stacks.push_back(memory_stack(trace, rank));
    return stacks;
}

}  // namespace trainscope::reports
