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
// run) and keeps it as counter series on the host clock: "memory/<class>", and the moment
// the sum of all classes first reached its peak (exact, from every change).
//
// A step changes the bytes some hundred times; the series keep at most
// kIntervalsPerStep + 1 states of all classes per step: the step's changes are cut into
// kIntervalsPerStep equal stretches of time, each keeps the state of its largest total
// (so every stretch's peak, the run's peak among them, is kept exactly), and the step's
// last state is kept, so a step ends on what it held then. A kept value holds until the
// next kept state, so the shape between peaks is right to a stretch (1/32 of a step).
// Steps are told by step_ended(); changes after the last step (evaluation, teardown) are
// reduced the same way when the series are taken. Held by the cell's capture; the
// engine calls it on its training thread.
class MemoryTimeline final : public workloads::MemoryListener {
  public:
    static constexpr std::size_t kIntervalsPerStep = 32;

    using Clock = std::function<std::int64_t()>;  // absolute ns, as profiler::host_clock_now_ns
    explicit MemoryTimeline(Clock clock);

    void on_memory_change(workloads::TensorClass tensor_class, std::int64_t class_bytes,
                          std::int64_t total_bytes) noexcept override;
    // A step (or an evaluation) has ended: its changes are reduced to the kept states.
    void step_ended() noexcept;

    // The series of the classes that held memory, as a trace based at this timeline's
    // start (merge it into the cell's trace with profiler::merge_trace_into).
    [[nodiscard]] profiler::Trace trace();
    // When the sum of the classes first reached its peak, absolute on the clock.
    [[nodiscard]] std::optional<std::int64_t> peak_ns() const { return peak_ns_; }
    // Changes that could not be kept (no memory for the sample); 0 in any sane run.
    [[nodiscard]] std::int64_t lost_samples() const { return lost_samples_; }

  private:
    struct State {
        std::int64_t t_ns = 0;  // relative to base_ns_
        std::int64_t total = 0;
        workloads::ClassBytes bytes{};
    };
    void keep(const State& state);

    Clock clock_;
    std::int64_t base_ns_;
    workloads::ClassBytes live_{};
    std::vector<State> pending_;  // this step's changes
    std::array<std::vector<profiler::CounterSample>, workloads::kTensorClassCount> samples_;
    workloads::ClassBytes kept_{};  // the last kept value of each class
    std::int64_t peak_bytes_ = 0;
    std::optional<std::int64_t> peak_ns_;
    std::int64_t lost_samples_ = 0;
};

}  // namespace trainscope::harness
