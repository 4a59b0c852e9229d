#include "harness/capture/CellCapture.hpp"

#include <algorithm>
#include <cstdint>

#include "profiler/capture/HostClock.hpp"
#include "profiler/nvml/NvmlSampler.hpp"
#include "profiler/trace/TraceMerge.hpp"
#if defined(TRAINSCOPE_HAS_HOST_TRACER)
#include "profiler/host/HostTracer.hpp"
#endif
#if defined(TRAINSCOPE_HAS_CUPTI)
#include "profiler/cupti/CuptiTracer.hpp"
#endif

namespace trainscope::harness {

namespace {

// NVML clocks-throttle reasons that slow the GPU down (idle and application-clock
// settings are not slowdowns): SW power cap, HW slowdown, SW thermal, HW thermal,
// HW power brake.
constexpr std::uint64_t kSlowdownReasons = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

const profiler::CounterSeries* find_series(const std::vector<profiler::CounterSeries>& series,
                                           const std::string& name) {
    for (const auto& s : series) {
        if (s.name == name && !s.samples.empty())
            return &s;
    }
    return nullptr;
}

void add_mean_max(std::vector<reports::Metric>& out, const profiler::CounterSeries* s,
                  const std::string& prefix, const std::string& unit) {
    if (s == nullptr)
        return;
    double sum = 0.0;
    double max = s->samples.front().value;
    for (const auto& sample : s->samples) {
        sum += sample.value;
        max = std::max(max, sample.value);
    }
    out.push_back({prefix + "_mean", sum / static_cast<double>(s->samples.size()), unit});
    out.push_back({prefix + "_max", max, unit});
}

std::vector<reports::Metric> telemetry_metrics(const std::vector<profiler::CounterSeries>& series,
                                               std::int64_t steps) {
    std::vector<reports::Metric> m;
    add_mean_max(m, find_series(series, "sm_clock"), "sm_clock_mhz", "MHz");
    add_mean_max(m, find_series(series, "power"), "power_w", "W");
    add_mean_max(m, find_series(series, "temperature"), "temperature_c", "C");
    add_mean_max(m, find_series(series, "gpu_utilization"), "nvml_gpu_util_pct", "%");
    if (const auto* throttle = find_series(series, "clocks_throttle_reasons")) {
        std::uint64_t seen = 0;
        std::int64_t throttled = 0;
        for (const auto& sample : throttle->samples) {
            const auto bits = static_cast<std::uint64_t>(sample.value);
            seen |= bits;
            throttled += (bits & kSlowdownReasons) != 0;
        }
        m.push_back({"throttle_reasons_seen", static_cast<double>(seen), "bitmask"});
        m.push_back(
            {"throttled_sample_pct",
             100.0 * static_cast<double>(throttled) / static_cast<double>(throttle->samples.size()),
             "%"});
    }
    if (const auto* energy = find_series(series, "energy"); energy != nullptr && steps > 0) {
        const double joules = energy->samples.back().value - energy->samples.front().value;
        m.push_back({"energy_per_step_j", joules / static_cast<double>(steps), "J"});
    }
    return m;
}

}  // namespace

CellCapture::CellCapture(profiler::TraceLevel level, const std::string& backend) : level_(level) {
    const bool cuda = backend == "cuda";
    if (cuda) {
        profiler::NvmlSamplerOptions options;
        nvml_base_ns_ = profiler::host_clock_now_ns();
        options.trace_base_ns = nvml_base_ns_;
        nvml_ = std::make_unique<profiler::NvmlSampler>(options);
        nvml_->start();
    }
    if (level_ == profiler::TraceLevel::Off)
        return;
#if defined(TRAINSCOPE_HAS_HOST_TRACER)
    host_ = std::make_unique<profiler::HostTracer>();
#endif
#if defined(TRAINSCOPE_HAS_CUPTI)
    if (cuda) {
        profiler::CuptiTracerOptions options;
        options.level = level_;
        cupti_ = std::make_unique<profiler::CuptiTracer>(options);
    }
#endif
}

CellCapture::~CellCapture() = default;

CapturedCell CellCapture::stop(std::int64_t measured_steps) {
    CapturedCell captured;
    if (const std::optional<HostLoad> load = host_load_.stop()) {
        captured.telemetry_metrics.push_back({"host_other_cpu_pct", load->other_cpu_pct, "%"});
        captured.telemetry_metrics.push_back({"host_steal_pct", load->steal_pct, "%"});
        if (std::string warning = busy_host_warning(*load); !warning.empty()) {
            captured.warnings.push_back(std::move(warning));
        }
    }
    std::vector<profiler::CounterSeries> counters;
    if (nvml_) {
        counters = nvml_->stop();
        if (!nvml_->available())
            captured.warnings.push_back(nvml_->warning());
        for (reports::Metric& m : telemetry_metrics(counters, measured_steps)) {
            captured.telemetry_metrics.push_back(std::move(m));
        }
    }
    if (level_ == profiler::TraceLevel::Off)
        return captured;
    profiler::Trace trace;
    bool have_trace = false;
#if defined(TRAINSCOPE_HAS_CUPTI)
    if (cupti_) {
        trace = cupti_->stop();
        have_trace = true;
    }
#endif
#if defined(TRAINSCOPE_HAS_HOST_TRACER)
    if (host_) {
        profiler::Trace host = host_->stop();
        if (level_ == profiler::TraceLevel::Kernels) {
            // kernels: the work itself; NVTX phase ranges belong to full.
            std::erase_if(host.activities, [](const profiler::Activity& a) {
                return a.kind == profiler::ActivityKind::NvtxRange;
            });
        }
        if (have_trace) {
            profiler::merge_trace_into(trace, host);
        } else {
            trace = std::move(host);
            have_trace = true;
        }
    } else {
        captured.warnings.push_back(
            "host tracing needs the NVTX 3 headers, which this build lacks");
    }
#endif
    if (!have_trace)
        return captured;
    if (level_ == profiler::TraceLevel::Full && !counters.empty()) {
        profiler::Trace counter_trace;
        counter_trace.base_ns = nvml_base_ns_;
        counter_trace.counters = std::move(counters);
        profiler::merge_trace_into(trace, counter_trace);
    }
    captured.trace = std::move(trace);
    return captured;
}

}  // namespace trainscope::harness
