#include "harness/capture/TelemetryWindow.hpp"

#include <algorithm>
#include <string>

#include "reports/metrics/MetricTags.hpp"

namespace trainscope::harness {

namespace {

using Samples = std::vector<profiler::CounterSample>;

bool covers(const Samples& samples, const TimeInterval& interval) {
    return !samples.empty() && samples.front().t_ns <= interval.begin_ns &&
           interval.end_ns <= samples.back().t_ns;
}

// First sample strictly after t.
Samples::const_iterator after(const Samples& samples, std::int64_t t_ns) {
    return std::upper_bound(
        samples.begin(), samples.end(), t_ns,
        [](std::int64_t t, const profiler::CounterSample& s) { return t < s.t_ns; });
}

const profiler::CounterSeries* find_series(const std::vector<profiler::CounterSeries>& series,
                                           const std::string& name) {
    for (const auto& s : series) {
        if (s.name == name && !s.samples.empty())
            return &s;
    }
    return nullptr;
}

void add_mean_max(std::vector<reports::Metric>& out, const profiler::CounterSeries* s,
                  std::span<const TimeInterval> intervals, const char* mean_tag,
                  const char* max_tag) {
    if (s == nullptr)
        return;
    if (const auto stats = window_mean_max(*s, intervals)) {
        out.push_back({mean_tag, stats->mean});
        out.push_back({max_tag, stats->max});
    }
}

}  // namespace

std::optional<double> interpolate_at(const profiler::CounterSeries& series, std::int64_t t_ns) {
    const Samples& samples = series.samples;
    if (samples.empty() || t_ns < samples.front().t_ns || t_ns > samples.back().t_ns)
        return std::nullopt;
    const auto next = after(samples, t_ns);
    const auto previous = std::prev(next);  // t_ns >= front: exists
    if (next == samples.end() || previous->t_ns == t_ns)
        return previous->value;
    const double fraction = static_cast<double>(t_ns - previous->t_ns) /
                            static_cast<double>(next->t_ns - previous->t_ns);
    return previous->value + fraction * (next->value - previous->value);
}

std::optional<WindowMeanMax> window_mean_max(const profiler::CounterSeries& series,
                                             std::span<const TimeInterval> intervals) {
    if (intervals.empty())
        return std::nullopt;
    double area = 0.0;
    double length = 0.0;
    double edge_sum = 0.0;  // for all-zero-length windows
    std::optional<double> max;
    for (const TimeInterval& interval : intervals) {
        if (!covers(series.samples, interval) || interval.end_ns < interval.begin_ns)
            return std::nullopt;
        // Trapezoids through the interval's edges and every sample strictly inside it.
        std::int64_t t = interval.begin_ns;
        double v = *interpolate_at(series, t);
        edge_sum += v;
        max = std::max(max.value_or(v), v);
        for (auto it = after(series.samples, t); it != series.samples.end(); ++it) {
            if (it->t_ns >= interval.end_ns)
                break;
            area += 0.5 * (v + it->value) * static_cast<double>(it->t_ns - t);
            t = it->t_ns;
            v = it->value;
            max = std::max(*max, v);
        }
        const double end_value = *interpolate_at(series, interval.end_ns);
        area += 0.5 * (v + end_value) * static_cast<double>(interval.end_ns - t);
        max = std::max(*max, end_value);
        length += static_cast<double>(interval.end_ns - interval.begin_ns);
    }
    WindowMeanMax result;
    result.mean = length > 0.0 ? area / length : edge_sum / static_cast<double>(intervals.size());
    result.max = *max;
    return result;
}

std::optional<double> window_increase(const profiler::CounterSeries& series,
                                      std::span<const TimeInterval> intervals) {
    if (intervals.empty())
        return std::nullopt;
    double increase = 0.0;
    for (const TimeInterval& interval : intervals) {
        if (!covers(series.samples, interval) || interval.end_ns < interval.begin_ns)
            return std::nullopt;
        increase +=
            *interpolate_at(series, interval.end_ns) - *interpolate_at(series, interval.begin_ns);
    }
    return increase;
}

std::optional<WindowBitmask> window_bitmask(const profiler::CounterSeries& series,
                                            std::span<const TimeInterval> intervals,
                                            std::uint64_t flags) {
    const Samples& samples = series.samples;
    std::int64_t readings = 0;
    std::int64_t flagged = 0;
    WindowBitmask result;
    for (const TimeInterval& interval : intervals) {
        auto it = after(samples, interval.begin_ns);
        if (it == samples.begin())
            return std::nullopt;  // nothing read yet when the interval begins
        for (--it; it != samples.end() && it->t_ns <= interval.end_ns; ++it) {
            const auto bits = static_cast<std::uint64_t>(it->value);
            result.seen |= bits;
            flagged += (bits & flags) != 0;
            ++readings;
        }
    }
    if (readings == 0)
        return std::nullopt;
    result.flagged_pct = 100.0 * static_cast<double>(flagged) / static_cast<double>(readings);
    return result;
}

std::vector<reports::Metric> window_telemetry_metrics(
    const std::vector<profiler::CounterSeries>& series, std::span<const TimeInterval> intervals,
    std::int64_t measured_steps) {
    std::vector<reports::Metric> m;
    if (intervals.empty())
        return m;
    namespace tag = reports::metric_tag;
    add_mean_max(m, find_series(series, "sm_clock"), intervals, tag::sm_clock_mhz_mean,
                 tag::sm_clock_mhz_max);
    add_mean_max(m, find_series(series, "power"), intervals, tag::power_w_mean, tag::power_w_max);
    add_mean_max(m, find_series(series, "temperature"), intervals, tag::temperature_c_mean,
                 tag::temperature_c_max);
    add_mean_max(m, find_series(series, "gpu_utilization"), intervals, tag::nvml_gpu_util_pct_mean,
                 tag::nvml_gpu_util_pct_max);
    if (const auto* reasons = find_series(series, "clocks_throttle_reasons")) {
        if (const auto bits = window_bitmask(*reasons, intervals, kSlowdownReasons)) {
            m.push_back({tag::throttle_reasons_seen, static_cast<double>(bits->seen)});
            m.push_back({tag::throttled_sample_pct, bits->flagged_pct});
        }
    }
    if (const auto* energy = find_series(series, "energy");
        energy != nullptr && measured_steps > 0) {
        if (const auto joules = window_increase(*energy, intervals)) {
            m.push_back({tag::energy_per_step_j, *joules / static_cast<double>(measured_steps)});
        }
    }
    return m;
}

}  // namespace trainscope::harness
