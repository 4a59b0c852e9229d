#include "harness/runner/TracingOverhead.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "harness/capture/TraceCapture.hpp"
#include "reports/metrics/MetricTags.hpp"
#include "reports/stats/SampleStatistics.hpp"
#include "workloads/training/TrainingSession.hpp"

namespace trainscope::harness {

std::optional<TracingOverhead> estimate_tracing_overhead(std::span<const OverheadRound> rounds) {
    if (rounds.size() < 2)
        return std::nullopt;
    // Ratios of times are averaged on the log scale: a round twice as slow and one twice
    // as fast cancel, as they should.
    std::vector<double> log_ratios;
    for (const OverheadRound& r : rounds) {
        if (!(r.untraced_median > 0.0) || !(r.traced_median > 0.0))
            return std::nullopt;
        log_ratios.push_back(std::log(r.traced_median / r.untraced_median));
    }
    const reports::SampleStatistics s = reports::summarize(log_ratios);
    const double half =
        reports::student_t_975(s.count - 1) * s.stdev / std::sqrt(static_cast<double>(s.count));
    auto pct = [](double log_ratio) { return 100.0 * std::expm1(log_ratio); };
    TracingOverhead overhead;
    overhead.estimate_pct = pct(s.mean);
    overhead.ci_low_pct = pct(s.mean - half);
    overhead.ci_high_pct = pct(s.mean + half);
    overhead.rounds = rounds.size();
    return overhead;
}

bool probe_block_is_traced(std::size_t block) {
    const bool second_of_round = block % 2 == 1;
    const bool reversed_round = (block / 2) % 2 == 1;
    return second_of_round != reversed_round;
}

InterleavedTracingProbe::InterleavedTracingProbe(std::size_t rounds, std::int64_t steps_per_block,
                                                 std::function<void(bool on)> switch_tracing)
    : rounds_(rounds),
      steps_per_block_(steps_per_block),
      switch_tracing_(std::move(switch_tracing)),
      block_steps_(2 * rounds) {}

std::int64_t InterleavedTracingProbe::steps_needed() const {
    return static_cast<std::int64_t>(2 * rounds_) * steps_per_block_;
}

bool InterleavedTracingProbe::on_step(const workloads::StepRecord& step) {
    if (step.warmup)
        return true;
    if (complete())
        return false;
    if (in_block_ > 0)  // the block's first step absorbs the switch
        block_steps_[block_].push_back(static_cast<double>(step.duration_ns));
    if (++in_block_ < steps_per_block_)
        return true;
    in_block_ = 0;
    ++block_;
    const bool traced_next = !complete() && probe_block_is_traced(block_);
    if (traced_next != tracing_) {
        tracing_ = traced_next;
        switch_tracing_(tracing_);
    }
    return !complete();
}

std::vector<OverheadRound> InterleavedTracingProbe::rounds() const {
    std::vector<OverheadRound> out;
    for (std::size_t r = 0; r < rounds_; ++r) {
        const std::size_t first = 2 * r;
        const std::size_t second = first + 1;
        if (block_steps_[first].empty() || block_steps_[second].empty())
            break;
        const double a = reports::quantile(block_steps_[first], 0.5);
        const double b = reports::quantile(block_steps_[second], 0.5);
        out.push_back(probe_block_is_traced(first) ? OverheadRound{b, a} : OverheadRound{a, b});
    }
    return out;
}

std::int64_t probe_steps_per_block(double median_step_ns) {
    constexpr double kBlockNs = 0.25e9;
    if (!(median_step_ns > 0.0))
        return 40;
    return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::ceil(kBlockNs / median_step_ns)),
                                    6, 40);
}

std::optional<TracingOverhead> run_tracing_probe(double median_step_ns,
                                                 std::function<void(bool on)> switch_tracing,
                                                 const ProbeTrainer& train) {
    // Six rounds: at least five, and an even number so that ABBA puts as many traced
    // blocks first as second.
    constexpr std::size_t kRounds = 6;
    const std::int64_t per_block = probe_steps_per_block(median_step_ns);
    InterleavedTracingProbe probe(kRounds, per_block, std::move(switch_tracing));
    train(probe);
    if (!probe.complete())
        return std::nullopt;
    const std::vector<OverheadRound> rounds = probe.rounds();
    std::optional<TracingOverhead> overhead = estimate_tracing_overhead(rounds);
    if (overhead)
        overhead->steps_per_block = per_block;
    return overhead;
}

std::optional<TracingOverhead> measure_tracing_overhead(const workloads::TrainingConfig& config,
                                                        profiler::TraceLevel level,
                                                        double median_step_ns) {
    const bool cuda = workloads::is_backend(config.backend, workloads::BackendKind::cuda);
    std::unique_ptr<TraceCapture> capture;
    std::vector<std::string> discarded;
    auto switch_tracing = [&](bool on) {
        if (on) {
            capture = std::make_unique<TraceCapture>(level, cuda);
        } else if (capture) {
            capture->stop(discarded);  // only the time it cost matters
            capture.reset();
        }
    };
    auto overhead =
        run_tracing_probe(median_step_ns, switch_tracing, [&](InterleavedTracingProbe& probe) {
            workloads::TrainingConfig probe_config = config;
            probe_config.steps = probe_config.warmup_steps + probe.steps_needed();
            probe_config.epochs = 0;
            probe_config.eval_every_steps = 0;
            probe_config.evaluate = false;
            probe_config.target_accuracy.reset();
            workloads::run_training(probe_config, &probe);
        });
    if (capture)
        capture->stop(discarded);
    return overhead;
}

double median_measured_step_ns(const workloads::TrainingResult& result) {
    std::vector<double> ns;
    for (const auto& s : result.steps) {
        if (!s.warmup)
            ns.push_back(static_cast<double>(s.duration_ns));
    }
    return ns.empty() ? 0.0 : reports::quantile(ns, 0.5);
}

void record_tracing_overhead(reports::RunRecord& record, const std::string& where,
                             const std::function<std::optional<TracingOverhead>()>& probe) {
    try {
        if (auto overhead = probe()) {
            for (auto& m : tracing_overhead_metrics(*overhead))
                record.metrics.push_back(std::move(m));
            record.environment["tracing_overhead_probe"] = fmt::format(
                "{} rounds of an untraced and a traced block of {} steps (ABBA order), {}",
                overhead->rounds, overhead->steps_per_block, where);
        }
    } catch (const std::exception& e) {
        record.environment["tracing_overhead_probe"] =
            std::string("failed, no figure: ") + e.what();
    }
}

std::vector<reports::Metric> tracing_overhead_metrics(const TracingOverhead& overhead) {
    std::vector<reports::Metric> metrics;
    if (overhead.measurable())
        metrics.push_back({reports::metric_tag::tracing_overhead_pct, overhead.estimate_pct});
    metrics.push_back({reports::metric_tag::tracing_overhead_pct_ci_low, overhead.ci_low_pct});
    metrics.push_back({reports::metric_tag::tracing_overhead_pct_ci_high, overhead.ci_high_pct});
    return metrics;
}

}  // namespace trainscope::harness
