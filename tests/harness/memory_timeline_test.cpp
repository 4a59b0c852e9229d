// The memory series a traced cell stores: a bounded number of states per step, with every
// stretch's peak (and so the run's) kept exactly and each step ending on its last state.
#include <gtest/gtest.h>

#include <algorithm>

#include "harness/capture/MemoryTimeline.hpp"
#include "reports/memory/MemorySeries.hpp"

namespace trainscope::harness {
namespace {

using workloads::TensorClass;

TEST(MemoryTimeline, KeepsABoundedNumberOfStatesPerStepAndEveryPeak) {
    std::int64_t now = 1'000'000;
    MemoryTimeline timeline([&now] { return now; });
    constexpr int kChangesPerStep = 600;
    constexpr int kSteps = 3;
    std::int64_t weights = 4096;
    timeline.on_memory_change(TensorClass::weights, weights, weights);
    std::int64_t largest = 0;
    std::int64_t largest_at = 0;
    std::int64_t activations = 0;
    for (int step = 0; step < kSteps; ++step) {
        for (int i = 0; i < kChangesPerStep; ++i) {
            now += 100;
            // Activations rise through the forward and fall through the backward, with one
            // sharp spike in the middle step that lasts a single change.
            activations = i < kChangesPerStep / 2 ? activations + 64 : activations - 64;
            std::int64_t shown = activations;
            if (step == 1 && i == 123)
                shown += 1'000'000;
            timeline.on_memory_change(TensorClass::activations, shown, weights + shown);
            if (weights + shown > largest) {
                largest = weights + shown;
                largest_at = now;
            }
        }
        timeline.step_ended();
    }
    profiler::Trace trace = timeline.trace();
    std::size_t samples = 0;
    for (const profiler::CounterSeries& s : trace.counters)
        samples = std::max(samples, s.samples.size());
    EXPECT_LE(samples, kSteps * (MemoryTimeline::kIntervalsPerStep + 1) + 1);
    EXPECT_GT(samples, std::size_t{kSteps});

    // The spike is the run's peak: kept exactly, at its moment.
    const reports::MemoryStack stack = reports::memory_stack(trace);
    EXPECT_EQ(stack.peak_total, static_cast<double>(largest));
    EXPECT_EQ(timeline.peak_ns(), largest_at);
    // Every step ends where the activations are gone again.
    EXPECT_EQ(stack.total_at(stack.t_ns.size() - 1), static_cast<double>(weights));
}

TEST(MemoryTimeline, AShortStepKeepsEveryChange) {
    std::int64_t now = 0;
    MemoryTimeline timeline([&now] { return now; });
    for (int i = 1; i <= 5; ++i) {
        now += 10;
        timeline.on_memory_change(TensorClass::activations, i * 100, i * 100);
    }
    timeline.step_ended();
    const profiler::Trace trace = timeline.trace();
    ASSERT_EQ(trace.counters.size(), 1u);
    EXPECT_EQ(trace.counters[0].samples.size(), 5u);
}

}  // namespace
}  // namespace trainscope::harness
