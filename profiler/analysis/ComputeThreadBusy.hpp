#pragma once

#include "profiler/analysis/BusyTimeline.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// How busy a CPU-backend run's compute threads are over time: the threads that run host
// ops, and at each moment how many of them are inside an op (nested ops on one thread
// count once). A BusyTimeline with one worker per thread.
class ComputeThreadBusy {
  public:
    // From the host ops of the trace, grouped by (process, thread) of their lane.
    static ComputeThreadBusy from_host_ops(const Trace& trace);

    // Threads that ran at least one op; 0 when the trace has no host ops.
    [[nodiscard]] int thread_count() const { return timeline_.worker_count(); }
    // Summed busy time of all compute threads in [t0_ns, t1_ns).
    [[nodiscard]] double busy_thread_ns(double t0_ns, double t1_ns) const {
        return timeline_.busy_ns(t0_ns, t1_ns);
    }
    // busy_thread_ns / (thread_count × window), in [0, 1]; 0 for no threads or an
    // empty window.
    [[nodiscard]] double busy_share(double t0_ns, double t1_ns) const {
        return timeline_.busy_share(t0_ns, t1_ns);
    }

    [[nodiscard]] std::size_t memory_bytes() const { return timeline_.memory_bytes(); }

  private:
    BusyTimeline timeline_;
};

}  // namespace trainscope::profiler
