#pragma once

#include <cstdint>
#include <optional>
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

// The last interval of a union being built from intervals that arrive by begin: the one
// joining rule (touching or overlapping intervals join) of merge_intervals and of the
// busy and overlap figures (DeviceSweep), which hold nothing but this.
class OpenInterval {
  public:
    // `next` must not begin before the open interval. Joins it to the open one when they
    // touch or overlap; otherwise returns the open one, finished, and opens `next`.
    std::optional<Interval> add(Interval next) {
        if (open_ && next.begin_ns <= current_.end_ns) {
            if (next.end_ns > current_.end_ns)
                current_.end_ns = next.end_ns;
            return std::nullopt;
        }
        const std::optional<Interval> done = finish();
        current_ = next;
        open_ = true;
        return done;
    }
    // The open interval, finished; none when nothing is open.
    std::optional<Interval> finish() {
        if (!open_)
            return std::nullopt;
        open_ = false;
        return current_;
    }

  private:
    Interval current_;
    bool open_ = false;
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
