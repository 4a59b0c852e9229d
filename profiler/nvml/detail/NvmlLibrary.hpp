#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace trainscope::profiler::detail {

// The few NVML declarations the sampler uses. No NVML header ships with the toolkit, so
// these mirror nvml.h (NVML API v2 entry points); all are C functions.
using NvmlReturn = int;  // nvmlReturn_t; 0 = NVML_SUCCESS
inline constexpr NvmlReturn kNvmlSuccess = 0;
struct NvmlDeviceOpaque;
using NvmlDevice = NvmlDeviceOpaque*;  // nvmlDevice_t
struct NvmlUtilization {               // nvmlUtilization_t
    unsigned int gpu;
    unsigned int memory;
};
struct NvmlMemory {  // nvmlMemory_t
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};
inline constexpr int kNvmlClockSm = 1;         // NVML_CLOCK_SM
inline constexpr int kNvmlClockMemory = 2;     // NVML_CLOCK_MEM
inline constexpr int kNvmlTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU

// Required entry points (init, shutdown, errors, device lookup) must all resolve or NVML
// is unavailable. Metric entry points are optional: a null one only drops its metrics
// (see NvmlResolution::missing_metrics).
struct NvmlFunctions {
    // Required.
    NvmlReturn (*init)();                                      // nvmlInit_v2
    NvmlReturn (*shutdown)();                                  // nvmlShutdown
    const char* (*error_string)(NvmlReturn);                   // nvmlErrorString
    NvmlReturn (*device_count)(unsigned int*);                 // nvmlDeviceGetCount_v2
    NvmlReturn (*handle_by_index)(unsigned int, NvmlDevice*);  // nvmlDeviceGetHandleByIndex_v2
    NvmlReturn (*handle_by_pci_bus_id)(const char*,
                                       NvmlDevice*);  // nvmlDeviceGetHandleByPciBusId_v2
    // Optional: null when the library lacks the symbol.
    NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization*);      // nvmlDeviceGetUtilizationRates
    NvmlReturn (*memory)(NvmlDevice, NvmlMemory*);                // nvmlDeviceGetMemoryInfo
    NvmlReturn (*power_mw)(NvmlDevice, unsigned int*);            // nvmlDeviceGetPowerUsage
    NvmlReturn (*clock_mhz)(NvmlDevice, int, unsigned int*);      // nvmlDeviceGetClockInfo
    NvmlReturn (*temperature_c)(NvmlDevice, int, unsigned int*);  // nvmlDeviceGetTemperature
    NvmlReturn (*energy_mj)(NvmlDevice,
                            unsigned long long*);  // nvmlDeviceGetTotalEnergyConsumption
    // nvmlDeviceGetCurrentClocksEventReasons, or where the driver predates it the
    // deprecated nvmlDeviceGetCurrentClocksThrottleReasons (same signature and bits).
    NvmlReturn (*clocks_event_reasons)(NvmlDevice, unsigned long long*);
};

// What resolving the entry points found. `ok` is false when a required one is missing
// (`why_not` names it); `missing_metrics` names the metrics dropped because their
// optional entry point is missing, e.g. "power (nvmlDeviceGetPowerUsage)".
struct NvmlResolution {
    bool ok = false;
    std::string why_not;
    std::vector<std::string> missing_metrics;
    std::string clocks_event_reasons_symbol;  // which name resolved, empty when neither
};

// symbol name -> address or nullptr (dlsym in production, a table in tests).
using NvmlSymbolResolver = std::function<void*(const char* symbol)>;

// The symbol policy: every required symbol or nothing; each optional one on its own;
// the clocks-event-reasons metric from the new name first, then the deprecated one.
NvmlResolution resolve_nvml_functions(const NvmlSymbolResolver& resolve, NvmlFunctions& out);

struct DlCloser {
    void operator()(void* handle) const noexcept;
};

// libnvidia-ml loaded with dlopen and initialised; shut down and closed on destruction.
class NvmlLibrary {
  public:
    // nullptr when the library is missing, lacks a required function or fails to
    // initialise; `why_not` then says which.
    static std::unique_ptr<NvmlLibrary> open(const std::string& library, std::string& why_not);
    ~NvmlLibrary();
    NvmlLibrary(const NvmlLibrary&) = delete;
    NvmlLibrary& operator=(const NvmlLibrary&) = delete;

    [[nodiscard]] const NvmlFunctions& functions() const { return functions_; }
    // Metrics this library cannot give (optional symbols missing); empty when complete.
    [[nodiscard]] const std::vector<std::string>& missing_metrics() const {
        return missing_metrics_;
    }

  private:
    NvmlLibrary(std::unique_ptr<void, DlCloser> handle, NvmlFunctions functions,
                std::vector<std::string> missing_metrics);

    std::unique_ptr<void, DlCloser> handle_;
    NvmlFunctions functions_;
    std::vector<std::string> missing_metrics_;
};

}  // namespace trainscope::profiler::detail
