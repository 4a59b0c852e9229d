#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace trainscope::profiler {

// A half-open time interval [begin_ns, end_ns).
struct Interval {
    std::int64_t begin_ns = 0;
    std::int64_t end_ns = 0;

    [[nodiscard]] std::int64_t length_ns() const { return end_ns - begin_ns; }
    friend bool operator==(const Interval&, const Interval&) = default;
};

// Union of intervals as sorted, disjoint intervals. Intervals that touch are joined;
// empty or negative intervals are dropped.
std::vector<Interval> merge_intervals(std::vector<Interval> intervals);

// Total length of sorted, disjoint intervals.
std::int64_t total_length_ns(std::span<const Interval> merged);

// Parts of `from` not covered by `removed` (both sorted and disjoint).
std::vector<Interval> subtract_intervals(std::span<const Interval> from,
                                         std::span<const Interval> removed);

// Parts covered by both (both sorted and disjoint).
std::vector<Interval> intersect_intervals(std::span<const Interval> a, std::span<const Interval> b);

}  // namespace trainscope::profiler
