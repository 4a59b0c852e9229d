#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "profiler/trace/Activity.hpp"

namespace trainscope::profiler {

// How one lane's intervals nest, as they come in Trace::sort's order (by start, the longer
// first): an activity inside another is one level deeper. Partially overlapping intervals
// are siblings. The one nesting rule of the trace model (assign_nesting_depths, and the
// importers that stream a trace).
class NestingStack {
  public:
    // An interval that may still enclose the next activity.
    struct Open {
        std::int64_t start_ns = 0;
        std::int64_t end_ns = 0;
        StringId name = kNoString;
    };

    // Closes what `next` is not inside of; then open() are `next`'s ancestors (outermost
    // first) and their count is its depth. Call push(next) after.
    void close_before(const Activity& next) {
        while (!open_.empty() &&
               (next.start_ns >= open_.back().end_ns || next.end_ns > open_.back().end_ns)) {
            open_.pop_back();
        }
    }
    [[nodiscard]] std::span<const Open> open() const { return open_; }
    [[nodiscard]] std::uint16_t depth() const { return static_cast<std::uint16_t>(open_.size()); }
    void push(const Activity& a) { open_.push_back({a.start_ns, a.end_ns, a.name}); }
    void clear() { open_.clear(); }

  private:
    std::vector<Open> open_;
};

}  // namespace trainscope::profiler
