#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/capture/HostLoadMonitor.hpp"
#include "harness/capture/MemoryTimeline.hpp"
#include "harness/capture/TelemetryWindow.hpp"
#include "harness/capture/TraceCapture.hpp"
#include "profiler/capture/TraceLevel.hpp"
#include "profiler/trace/Trace.hpp"
#include "reports/store/RunRecord.hpp"
#include "workloads/backend/BackendKind.hpp"

namespace trainscope::profiler {
class NvmlSampler;
}  // namespace trainscope::profiler

namespace trainscope::harness {

// Everything recorded around one cell's training: the trace (host NVTX ranges and ops;
// on CUDA also CUPTI GPU activity) at the requested level, on CUDA the NVML device
// telemetry, and on every backend how busy the rest of the machine was. The last two are
// recorded whatever the trace level: throttling and contention invalidate a measurement.
struct CapturedCell {
    std::optional<profiler::Trace> trace;  // nullopt at level off
    std::vector<reports::Metric> telemetry_metrics;
    std::vector<std::string> warnings;
    // For the run's environment: `nvml_device` (which GPU the telemetry describes, or why
    // there is none), `nvml_missing_metrics`.
    std::map<std::string, std::string> metadata;
    // When the engine's tensor memory first reached its peak, on the trace's clock (traced
    // engine runs only; the series themselves are in the trace's counters).
    std::optional<std::int64_t> memory_peak_t_ns;
};

// The CUDA device a cell trains on: its ordinal (`--device`, as cudaSetDevice numbers it)
// and the PCI bus id cudaDeviceGetPCIBusId reports for it (empty when CUDA gave none).
struct CaptureDevice {
    int cuda_ordinal = 0;
    std::string pci_bus_id;
};

// Starts the capture on construction; stop() ends it. The tracers are process-wide
// singletons, which is fine: each cell runs in its own process.
class CellCapture {
  public:
    // On the cuda backend NVML samples `device` only, found by its PCI bus id.
    CellCapture(profiler::TraceLevel level, workloads::BackendKind backend,
                const CaptureDevice& device = {});
    ~CellCapture();
    CellCapture(const CellCapture&) = delete;
    CellCapture& operator=(const CellCapture&) = delete;

    // `measured` are the measured steps' intervals on the host clock
    // (profiler::host_clock_now_ns, absolute) and how many steps they hold: the NVML
    // telemetry metrics describe that window only.
    CapturedCell stop(std::span<const TimeInterval> measured, std::int64_t measured_steps);

    // Who records the engine's memory by tensor class (TrainingObserver::memory_listener);
    // nullptr at level off.
    MemoryTimeline* memory_timeline() { return memory_ ? &*memory_ : nullptr; }

  private:
    HostLoadMonitor host_load_;  // first, so its window covers the whole capture
    profiler::TraceLevel level_;
    std::int64_t nvml_base_ns_ = 0;
    std::map<std::string, std::string> nvml_metadata_;
    std::unique_ptr<profiler::NvmlSampler> nvml_;
    std::optional<TraceCapture> trace_;     // started last, so NVML setup is not traced
    std::optional<MemoryTimeline> memory_;  // after trace_: its samples lie inside the trace
};

}  // namespace trainscope::harness
