#include "harness/capture/CellCapture.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

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

CellCapture::CellCapture(profiler::TraceLevel level, const std::string& backend,
                         const CaptureDevice& device)
    : level_(level), cuda_(backend == "cuda") {
    const bool cuda = cuda_;
    if (cuda && device.pci_bus_id.empty()) {
        // Never another GPU's telemetry: without the bus id NVML cannot be matched.
        nvml_metadata_["nvml_device"] = "not found: CUDA reported no PCI bus id for device " +
                                        std::to_string(device.cuda_ordinal) +
                                        "; no GPU telemetry recorded";
    } else if (cuda) {
        profiler::NvmlSamplerOptions options;
        nvml_base_ns_ = profiler::host_clock_now_ns();
        options.trace_base_ns = nvml_base_ns_;
        options.pci_bus_id = device.pci_bus_id;
        options.series_device = device.cuda_ordinal;
        nvml_ = std::make_unique<profiler::NvmlSampler>(options);
        for (const auto& [key, value] : nvml_->metadata())
            nvml_metadata_[key] = value;
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

CapturedCell CellCapture::stop(std::span<const TimeInterval> measured,
                               std::int64_t measured_steps) {
    CapturedCell captured;
    captured.metadata = nvml_metadata_;
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
        // The samples are relative to nvml_base_ns_; the intervals are absolute.
        std::vector<TimeInterval> window;
        for (const TimeInterval& interval : measured)
            window.push_back({interval.begin_ns - nvml_base_ns_, interval.end_ns - nvml_base_ns_});
        for (reports::Metric& m : window_telemetry_metrics(counters, window, measured_steps))
            captured.telemetry_metrics.push_back(std::move(m));
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
        // kernels: the work itself; on CUDA the NVTX phase ranges belong to full. On the
        // CPU the ops are the work and arrive through the same NVTX injection as the few
        // phase ranges per step (a handful against dozens of ops) are what gives the
        // trace its steps (timeline rows, per-step compare, analyze's NVTX section).
        if (level_ == profiler::TraceLevel::Kernels && cuda_) {
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
