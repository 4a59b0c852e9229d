#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "profiler/trace/Counter.hpp"

namespace trainscope::profiler {

namespace detail {
class NvmlLibrary;
}

struct NvmlSamplerOptions {
    // NVML averages power and utilisation over windows of 1/6 s to 1 s itself, so 100 ms
    // loses nothing those metrics hold; see docs/profiler.md.
    std::chrono::milliseconds period{100};
    std::string library = "libnvidia-ml.so.1";  // loaded with dlopen at run time
    std::int64_t trace_base_ns = 0;             // sample times are host_clock_now_ns() - this
    // The device to sample, by the PCI bus id CUDA reports (cudaDeviceGetPCIBusId:
    // "0000:01:00.0"), and the device number its series carry (the CUDA ordinal). NVML's
    // index order need not be CUDA's, so this is how a capture describes the GPU that
    // trained. When the lookup fails nothing is sampled and metadata() says why. Empty:
    // every NVML device, labelled with its NVML index (standalone use).
    std::string pci_bus_id;
    std::int32_t series_device = 0;
};

// Samples one GPU (or every GPU) through NVML on a background thread: utilization (gpu,
// memory, %), memory used (bytes), power (W), SM and memory clocks (MHz), temperature
// (C), total energy (J) and the clocks-event-reason bit mask. It samples once in
// start(), then every period, and once more when stop() is called, so the samples
// bracket the capture. NVML is optional: when the library is absent, lacks a required
// entry point, fails to initialise or has no device with the requested bus id,
// available() is false, warning() says why, and stop() returns no counters; nothing
// throws. A metric whose entry point the library lacks is dropped (metadata() names it);
// one a device does not support is skipped for that device.
class NvmlSampler {
  public:
    explicit NvmlSampler(NvmlSamplerOptions options = {});
    ~NvmlSampler();
    NvmlSampler(const NvmlSampler&) = delete;
    NvmlSampler& operator=(const NvmlSampler&) = delete;

    [[nodiscard]] bool available() const;
    [[nodiscard]] const std::string& warning() const { return warning_; }
    // For the run's metadata: `nvml_device` (which device, or why none) when a bus id was
    // given, `nvml_missing_metrics` when optional entry points are missing.
    [[nodiscard]] const std::map<std::string, std::string>& metadata() const { return metadata_; }

    // Starts the sampling thread (no-op when unavailable or already started).
    void start();
    // Stops the thread and returns one series per (device, metric) with samples.
    std::vector<CounterSeries> stop();

  private:
    struct State;
    NvmlSamplerOptions options_;
    std::string warning_;
    std::map<std::string, std::string> metadata_;
    std::unique_ptr<State> state_;
};

}  // namespace trainscope::profiler
