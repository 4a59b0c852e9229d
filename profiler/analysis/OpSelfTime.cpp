#include "profiler/analysis/OpSelfTime.hpp"

#include <algorithm>
#include <set>

#include "profiler/trace/TraceOrder.hpp"

namespace trainscope::profiler {

namespace {

// One lane's ops, in start order (ties: the longer first, then as recorded): each
// instant between two events goes to the active op latest in that order.
void split_lane(const std::vector<Activity>& all, const std::vector<std::size_t>& ops,
                std::vector<std::int64_t>& self) {
    std::vector<std::size_t> by_end(ops.size());  // positions in `ops`, by end time
    for (std::size_t k = 0; k < ops.size(); ++k)
        by_end[k] = k;
    std::stable_sort(by_end.begin(), by_end.end(), [&](std::size_t x, std::size_t y) {
        return all[ops[x]].end_ns < all[ops[y]].end_ns;
    });
    std::set<std::size_t> active;  // positions in `ops` of the ops running now
    std::size_t next_start = 0;
    std::size_t next_end = 0;
    std::int64_t now = 0;
    while (next_end < by_end.size()) {
        // Ends before starts at the same time (intervals are half-open), but an op ends
        // only once it has started (a zero-length op starts and ends at one instant).
        const std::size_t ending = by_end[next_end];
        const bool take_end =
            next_start == ops.size() || all[ops[ending]].end_ns < all[ops[next_start]].start_ns ||
            (all[ops[ending]].end_ns == all[ops[next_start]].start_ns && ending < next_start);
        const std::int64_t t = take_end ? all[ops[ending]].end_ns : all[ops[next_start]].start_ns;
        if (!active.empty())
            self[ops[*active.rbegin()]] += t - now;
        now = t;
        if (take_end) {
            active.erase(ending);
            ++next_end;
        } else {
            active.insert(next_start++);
        }
    }
}

}  // namespace

std::vector<std::int64_t> op_self_times(const Trace& trace, const std::vector<bool>& is_op) {
    const std::vector<Activity>& all = trace.activities;
    std::vector<std::int64_t> self(all.size());
    std::vector<std::size_t> ops;
    for (std::size_t i = 0; i < all.size(); ++i) {
        // An interval that ends before it starts is malformed: it takes no part.
        const bool op = i < is_op.size() && is_op[i] && all[i].end_ns >= all[i].start_ns;
        self[i] = op ? 0 : all[i].duration_ns();
        if (op)
            ops.push_back(i);
    }
    std::stable_sort(ops.begin(), ops.end(),
                     [&](std::size_t x, std::size_t y) { return in_trace_order(all[x], all[y]); });
    std::vector<std::size_t> lane;
    for (std::size_t k = 0; k < ops.size(); ++k) {
        lane.push_back(ops[k]);
        if (k + 1 == ops.size() || all[ops[k + 1]].lane != all[ops[k]].lane) {
            split_lane(all, lane, self);
            lane.clear();
        }
    }
    return self;
}

}  // namespace trainscope::profiler
