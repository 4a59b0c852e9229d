#pragma once

#include <cstdint>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// How busy a CPU-backend run's compute threads are over time: the threads that run host
// ops, and at each moment how many of them are inside an op (nested ops on one thread
// count once). Kept as a step function with running sums, so that the busy share of any
// window costs two binary searches: the utilization plot asks for one per 2 px.
class ComputeThreadBusy {
  public:
    // From the host ops of the trace, grouped by (process, thread) of their lane.
    static ComputeThreadBusy from_host_ops(const Trace& trace);

    // Threads that ran at least one op; 0 when the trace has no host ops.
    [[nodiscard]] int thread_count() const { return thread_count_; }
    // Summed busy time of all compute threads in [t0_ns, t1_ns).
    [[nodiscard]] double busy_thread_ns(double t0_ns, double t1_ns) const;
    // busy_thread_ns / (thread_count × window), in [0, 1]; 0 for no threads or an
    // empty window.
    [[nodiscard]] double busy_share(double t0_ns, double t1_ns) const;

  private:
    [[nodiscard]] double busy_before(double t_ns) const;

    int thread_count_ = 0;
    // From times_[i] to times_[i + 1], level_[i] threads are busy; before_[i] is the busy
    // thread-time up to times_[i]. The last level is 0.
    std::vector<std::int64_t> times_;
    std::vector<int> level_;
    std::vector<std::int64_t> before_;
};

}  // namespace trainscope::profiler
