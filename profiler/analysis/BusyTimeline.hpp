#pragma once

#include <cstdint>
#include <vector>

#include "profiler/analysis/IntervalSet.hpp"

namespace trainscope::profiler {

// How many of a set of workers (a device; a CPU-backend run's compute threads) are busy
// at each moment, as a step function with running sums, so that the busy time of any
// window costs two binary searches: the utilization plot asks once per 2 px, the range
// panel once per selection. The one implementation of "busy time in a window" that the
// GUI's views and the analyses share.
class BusyTimeline {
  public:
    BusyTimeline() = default;
    // One entry per worker, its work as intervals (overlaps within a worker count once).
    // std::length_error for more than kMaxWorkers workers.
    explicit BusyTimeline(std::vector<std::vector<Interval>> workers);
    static constexpr int kMaxWorkers = 65535;

    [[nodiscard]] int worker_count() const { return worker_count_; }
    // Summed busy time of all workers in [t0_ns, t1_ns); 0 for an empty window.
    [[nodiscard]] double busy_ns(double t0_ns, double t1_ns) const;
    // busy_ns / (worker_count × window), in [0, 1]; 0 for no workers or an empty window.
    [[nodiscard]] double busy_share(double t0_ns, double t1_ns) const;
    // The bytes its step function holds (the GUI's memory accounting).
    [[nodiscard]] std::size_t memory_bytes() const {
        return times_.capacity() * sizeof(std::int64_t) +
               level_.capacity() * sizeof(std::uint16_t) +
               before_.capacity() * sizeof(std::int64_t);
    }

  private:
    [[nodiscard]] double busy_before(double t_ns) const;

    int worker_count_ = 0;
    // From times_[i] to times_[i + 1], level_[i] workers are busy; before_[k] is the busy
    // worker-time up to times_[k × kStride] (the rest of the way is summed from the levels:
    // at most kStride - 1 steps, exact in integers). The last level is 0. About 10 bytes a
    // change point, where a running sum at each took 20 (the GUI holds one per device).
    static constexpr std::size_t kStride = 32;
    std::vector<std::int64_t> times_;
    std::vector<std::uint16_t> level_;
    std::vector<std::int64_t> before_;
};

}  // namespace trainscope::profiler
