#include "harness/capture/CellCapture.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "profiler/capture/HostClock.hpp"
#include "profiler/nvml/NvmlSampler.hpp"
#include "profiler/trace/TraceMerge.hpp"
#include "reports/metrics/MetricTags.hpp"

namespace trainscope::harness {

CellCapture::CellCapture(profiler::TraceLevel level, workloads::BackendKind backend,
                         const CaptureDevice& device)
    : level_(level) {
    const bool cuda = backend == workloads::BackendKind::cuda;
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
    trace_.emplace(level_, cuda);
    if (level_ != profiler::TraceLevel::Off)
        memory_.emplace(profiler::host_clock_now_ns);
}

CellCapture::~CellCapture() = default;

CapturedCell CellCapture::stop(std::span<const TimeInterval> measured,
                               std::int64_t measured_steps) {
    CapturedCell captured;
    captured.metadata = nvml_metadata_;
    if (const std::optional<HostLoad> load = host_load_.stop()) {
        captured.telemetry_metrics.push_back(
            {reports::metric_tag::host_other_cpu_pct, load->other_cpu_pct});
        captured.telemetry_metrics.push_back(
            {reports::metric_tag::host_steal_pct, load->steal_pct});
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
    std::optional<profiler::Trace> trace = trace_->stop(captured.warnings);
    if (!trace)
        return captured;
    if (level_ == profiler::TraceLevel::Full && !counters.empty()) {
        profiler::Trace counter_trace;
        counter_trace.base_ns = nvml_base_ns_;
        counter_trace.counters = std::move(counters);
        profiler::merge_trace_into(*trace, counter_trace);
    }
    if (memory_) {
        profiler::Trace memory_trace = memory_->trace();
        if (!memory_trace.counters.empty())
            profiler::merge_trace_into(*trace, memory_trace);
        if (const auto peak_ns = memory_->peak_ns())
            captured.memory_peak_t_ns = *peak_ns - trace->base_ns;
        if (memory_->lost_samples() > 0)
            captured.warnings.push_back(
                "memory series: " + std::to_string(memory_->lost_samples()) +
                " changes of the bytes per tensor class were lost (no memory to keep them)");
    }
    captured.trace = std::move(trace);
    return captured;
}

}  // namespace trainscope::harness
