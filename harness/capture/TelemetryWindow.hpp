#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "profiler/trace/Counter.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::harness {

// A stretch of time on the samples' clock, [begin_ns, end_ns].
struct TimeInterval {
    std::int64_t begin_ns = 0;
    std::int64_t end_ns = 0;
};

// The series' value at t, linear between the neighbouring samples (samples sorted by
// time); nullopt before the first or after the last sample.
std::optional<double> interpolate_at(const profiler::CounterSeries& series, std::int64_t t_ns);

struct WindowMeanMax {
    double mean = 0.0;  // time-weighted mean of the interpolated series over the intervals
    double max = 0.0;   // over the samples inside the intervals and the values at their edges
};
// nullopt when the samples do not cover every interval (then nothing honest can be said)
// or there are no intervals. Zero-length intervals weigh nothing in the mean.
std::optional<WindowMeanMax> window_mean_max(const profiler::CounterSeries& series,
                                             std::span<const TimeInterval> intervals);

// How much a cumulative counter (NVML's total energy) grew inside the intervals: the sum
// of value(end) - value(begin), each interpolated. nullopt when not covered.
std::optional<double> window_increase(const profiler::CounterSeries& series,
                                      std::span<const TimeInterval> intervals);

struct WindowBitmask {
    std::uint64_t seen = 0;    // OR of every reading in effect inside the intervals
    double flagged_pct = 0.0;  // share of those readings with any bit of `flags`
};
// A bit mask is a state, not a quantity: the readings in effect inside an interval are
// the last sample at or before its begin and every sample after it up to its end.
// nullopt when no reading is in effect (an interval begins before the first sample).
std::optional<WindowBitmask> window_bitmask(const profiler::CounterSeries& series,
                                            std::span<const TimeInterval> intervals,
                                            std::uint64_t flags);

// NVML clocks-event reasons that slow the GPU down (idle and application-clock settings
// are not slowdowns): SW power cap, HW slowdown, SW thermal, HW thermal, HW power brake.
inline constexpr std::uint64_t kSlowdownReasons = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

// The cell's telemetry metrics over the measured steps only: sm_clock_mhz, power_w,
// temperature_c, nvml_gpu_util_pct (_mean, _max), throttle_reasons_seen,
// throttled_sample_pct, and energy_per_step_j = energy growth inside the intervals /
// `measured_steps` (the steps the intervals hold). `series` are one device's; metrics
// whose series is missing or does not cover the intervals are left out.
std::vector<reports::Metric> window_telemetry_metrics(
    const std::vector<profiler::CounterSeries>& series, std::span<const TimeInterval> intervals,
    std::int64_t measured_steps);

}  // namespace trainscope::harness
