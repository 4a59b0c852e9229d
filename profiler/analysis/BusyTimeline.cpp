#include "profiler/analysis/BusyTimeline.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace trainscope::profiler {

BusyTimeline::BusyTimeline(std::vector<std::vector<Interval>> workers) {
    if (workers.size() > static_cast<std::size_t>(kMaxWorkers)) {
        throw std::length_error("a busy timeline of " + std::to_string(workers.size()) +
                                " workers; at most " + std::to_string(kMaxWorkers));
    }
    worker_count_ = static_cast<int>(workers.size());
    // +1 where a worker becomes busy, -1 where it becomes idle; one worker's merged
    // intervals never overlap, so the running level counts busy workers.
    std::vector<std::pair<std::int64_t, int>> edges;
    for (auto& intervals : workers) {
        for (const Interval& iv : merge_intervals(std::move(intervals))) {
            edges.emplace_back(iv.begin_ns, +1);
            edges.emplace_back(iv.end_ns, -1);
        }
    }
    std::sort(edges.begin(), edges.end());
    int level = 0;
    std::int64_t total = 0;
    for (const auto& [t, delta] : edges) {
        if (!times_.empty()) {
            total += static_cast<std::int64_t>(level_.back()) * (t - times_.back());
            if (times_.back() == t) {  // several edges at one time: one change point
                level += delta;
                level_.back() = static_cast<std::uint16_t>(level);
                continue;
            }
        }
        level += delta;
        if (times_.size() % kStride == 0)
            before_.push_back(total);
        times_.push_back(t);
        level_.push_back(static_cast<std::uint16_t>(level));
    }
    // Kept for the life of a view (the GUI's utilization plot): no growth slack.
    times_.shrink_to_fit();
    level_.shrink_to_fit();
    before_.shrink_to_fit();
}

double BusyTimeline::busy_before(double t_ns) const {
    // The last change point at or before t: the busy time up to it is the stored sum at
    // its stride's start plus the steps since, the rest of the way to t runs at its level.
    const auto it =
        std::upper_bound(times_.begin(), times_.end(), t_ns,
                         [](double t, std::int64_t c) { return t < static_cast<double>(c); });
    if (it == times_.begin())
        return 0.0;
    const auto i = static_cast<std::size_t>(it - times_.begin()) - 1;
    std::int64_t before = before_[i / kStride];
    for (std::size_t j = i - i % kStride; j < i; ++j)
        before += static_cast<std::int64_t>(level_[j]) * (times_[j + 1] - times_[j]);
    if (level_[i] == 0)  // also keeps an infinite t from making 0 × inf
        return static_cast<double>(before);
    return static_cast<double>(before) +
           static_cast<double>(level_[i]) * (t_ns - static_cast<double>(times_[i]));
}

double BusyTimeline::busy_ns(double t0_ns, double t1_ns) const {
    return t1_ns <= t0_ns ? 0.0 : busy_before(t1_ns) - busy_before(t0_ns);
}

double BusyTimeline::busy_share(double t0_ns, double t1_ns) const {
    if (worker_count_ == 0 || t1_ns <= t0_ns)
        return 0.0;
    return std::clamp(busy_ns(t0_ns, t1_ns) / (worker_count_ * (t1_ns - t0_ns)), 0.0, 1.0);
}

}  // namespace trainscope::profiler
