#include "profiler/analysis/IntervalSet.hpp"

#include <algorithm>

#include "profiler/analysis/AscendingRunsSort.hpp"

namespace trainscope::profiler {

std::vector<Interval> merge_intervals(std::vector<Interval> intervals) {
    std::erase_if(intervals, [](const Interval& i) { return i.end_ns <= i.begin_ns; });
    // Callers gather intervals lane by lane in trace order: a few runs by begin.
    sort_ascending_runs(
        intervals.begin(), intervals.end(),
        [](const Interval& a, const Interval& b) { return a.begin_ns < b.begin_ns; });
    std::vector<Interval> merged;
    OpenInterval open;
    for (const Interval& i : intervals) {
        if (const auto done = open.add(i))
            merged.push_back(*done);
    }
    if (const auto done = open.finish())
        merged.push_back(*done);
    return merged;
}

std::int64_t total_length_ns(std::span<const Interval> merged) {
    std::int64_t total = 0;
    for (const Interval& i : merged)
        total += i.length_ns();
    return total;
}

std::vector<Interval> subtract_intervals(std::span<const Interval> from,
                                         std::span<const Interval> removed) {
    std::vector<Interval> result;
    std::size_t r = 0;
    for (const Interval& f : from) {
        std::int64_t cursor = f.begin_ns;
        while (r < removed.size() && removed[r].end_ns <= cursor)
            ++r;
        for (std::size_t k = r; k < removed.size() && removed[k].begin_ns < f.end_ns; ++k) {
            if (removed[k].begin_ns > cursor)
                result.push_back({cursor, removed[k].begin_ns});
            cursor = std::max(cursor, removed[k].end_ns);
            if (cursor >= f.end_ns)
                break;
        }
        if (cursor < f.end_ns)
            result.push_back({cursor, f.end_ns});
    }
    return result;
}

std::vector<Interval> intersect_intervals(std::span<const Interval> a,
                                          std::span<const Interval> b) {
    std::vector<Interval> result;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const std::int64_t begin = std::max(a[i].begin_ns, b[j].begin_ns);
        const std::int64_t end = std::min(a[i].end_ns, b[j].end_ns);
        if (begin < end)
            result.push_back({begin, end});
        if (a[i].end_ns < b[j].end_ns) {
            ++i;
        } else {
            ++j;
        }
    }
    return result;
}

}  // namespace trainscope::profiler
