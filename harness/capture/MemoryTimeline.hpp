#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "profiler/trace/Trace.hpp"
#include "workloads/memory/MemoryLedger.hpp"

namespace trainscope::harness {

// Hears every change of the engine's bytes in use per tensor class (a traced cell's
// run) and keeps it as counter series on the host clock: "memory/<class>", one sample per
// change, and the moment the sum of all classes first reached its peak. Held by the
// cell's capture; the engine calls it on its training thread.
class MemoryTimeline final : public workloads::MemoryListener {
  public:
    using Clock = std::function<std::int64_t()>;  // absolute ns, as profiler::host_clock_now_ns
    explicit MemoryTimeline(Clock clock);

    void on_memory_change(workloads::TensorClass tensor_class, std::int64_t class_bytes,
                          std::int64_t total_bytes) noexcept override;

    // The series of the classes that held memory, as a trace based at this timeline's
    // start (merge it into the cell's trace with profiler::merge_trace_into).
    [[nodiscard]] profiler::Trace trace() const;
    // When the sum of the classes first reached its peak, absolute on the clock.
    [[nodiscard]] std::optional<std::int64_t> peak_ns() const { return peak_ns_; }
    // Changes that could not be kept (no memory for the sample); 0 in any sane run.
    [[nodiscard]] std::int64_t lost_samples() const { return lost_samples_; }

  private:
    Clock clock_;
    std::int64_t base_ns_;
    std::array<std::vector<profiler::CounterSample>, workloads::kTensorClassCount> samples_;
    std::int64_t peak_bytes_ = 0;
    std::optional<std::int64_t> peak_ns_;
    std::int64_t lost_samples_ = 0;
};

}  // namespace trainscope::harness
