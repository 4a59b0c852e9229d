#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "profiler/capture/TraceLevel.hpp"
#include "reports/store/RunRecord.hpp"
#include "workloads/training/TrainingConfig.hpp"
#include "workloads/training/TrainingResult.hpp"

namespace trainscope::harness {

// What tracing costs a step, from one A/B probe in the cell's own process: the same
// training alternates blocks of untraced and traced steps, and each round of one block
// per side gives a ratio of median step times. Comparing a traced run with a separate
// untraced run instead puts whatever differs between early and late steps (allocation,
// caches, the machine) into the figure; interleaving cancels it.
struct TracingOverhead {
    double estimate_pct = 0.0;  // geometric mean over rounds of traced/untraced - 1, in %
    double ci_low_pct = 0.0;    // Student-t 95 % interval of that mean (log scale)
    double ci_high_pct = 0.0;
    std::size_t rounds = 0;
    std::int64_t steps_per_block = 0;
    // The interval excludes zero. Otherwise the effect is smaller than the noise: it is
    // reported as not measurable, never as a number that looks exact.
    [[nodiscard]] bool measurable() const { return ci_low_pct > 0.0 || ci_high_pct < 0.0; }
};

// One round of the probe: the median step time of its untraced and its traced block.
struct OverheadRound {
    double untraced_median = 0.0;
    double traced_median = 0.0;
};

// Needs at least two rounds with positive medians; nullopt otherwise.
std::optional<TracingOverhead> estimate_tracing_overhead(std::span<const OverheadRound> rounds);

// Rounds are two blocks in ABBA order (untraced, traced | traced, untraced | ...), so a
// drift in speed during the probe falls on both sides alike.
bool probe_block_is_traced(std::size_t block);

// The probe's observer: after warm-up, `rounds` x 2 blocks of `steps_per_block` steps;
// switch_tracing(on) is called between blocks whenever the side changes (the engine calls
// observers between steps, outside the timed window). The first step of each block is
// left out of its median: it may carry the switch's after-effects (a tracer's first
// buffers). Stops training once every block is done.
class InterleavedTracingProbe : public workloads::TrainingObserver {
  public:
    InterleavedTracingProbe(std::size_t rounds, std::int64_t steps_per_block,
                            std::function<void(bool on)> switch_tracing);
    bool on_step(const workloads::StepRecord& step) override;

    [[nodiscard]] bool complete() const { return block_ == 2 * rounds_; }
    // The rounds whose two blocks are complete.
    [[nodiscard]] std::vector<OverheadRound> rounds() const;
    // Steps after warm-up the engine must run for the probe to complete.
    [[nodiscard]] std::int64_t steps_needed() const;

  private:
    std::size_t rounds_;
    std::int64_t steps_per_block_;
    std::function<void(bool)> switch_tracing_;
    std::size_t block_ = 0;
    std::int64_t in_block_ = 0;
    bool tracing_ = false;
    std::vector<std::vector<double>> block_steps_;
};

// Steps per block so that a block lasts about a quarter of a second at the traced run's
// median step time, within [6, 40]: long enough for a stable median, short enough that
// the probe of a slow model stays a few seconds.
std::int64_t probe_steps_per_block(double median_step_ns);

// The probe for any trainer, the engine or PyTorch's worker: sizes the blocks from the
// traced run's `median_step_ns`, calls `train(probe)`, which must train warm-up plus
// probe.steps_needed() steps with `probe` as its observer and call
// `switch_tracing(on)` when asked, and estimates the overhead from the rounds. nullopt
// when training ended before the probe completed.
using ProbeTrainer = std::function<void(InterleavedTracingProbe& probe)>;
std::optional<TracingOverhead> run_tracing_probe(double median_step_ns,
                                                 std::function<void(bool on)> switch_tracing,
                                                 const ProbeTrainer& train);

// Runs the probe for `config` (evaluation off, its own warm-up) with a TraceCapture at
// `level` during traced blocks. nullopt when training ended before the probe completed.
std::optional<TracingOverhead> measure_tracing_overhead(const workloads::TrainingConfig& config,
                                                        profiler::TraceLevel level,
                                                        double median_step_ns);

// The median of a run's measured (non-warm-up) step times; 0 without any.
double median_measured_step_ns(const workloads::TrainingResult& result);

// Runs `probe` after a traced run and records what it found in `record`: the overhead
// metrics, and environment.tracing_overhead_probe saying how it ran (`where`) or why it
// gave no figure. The run is measured already: a probe that throws costs its figure,
// not the run.
void record_tracing_overhead(reports::RunRecord& record, const std::string& where,
                             const std::function<std::optional<TracingOverhead>()>& probe);

// tracing_overhead_pct_ci_low/high always; tracing_overhead_pct only when measurable.
std::vector<reports::Metric> tracing_overhead_metrics(const TracingOverhead& overhead);

}  // namespace trainscope::harness
