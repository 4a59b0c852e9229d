#pragma once

#include <memory>
#include <string>

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

struct NvmlFunctions {
    NvmlReturn (*init)();                                         // nvmlInit_v2
    NvmlReturn (*shutdown)();                                     // nvmlShutdown
    const char* (*error_string)(NvmlReturn);                      // nvmlErrorString
    NvmlReturn (*device_count)(unsigned int*);                    // nvmlDeviceGetCount_v2
    NvmlReturn (*handle_by_index)(unsigned int, NvmlDevice*);     // nvmlDeviceGetHandleByIndex_v2
    NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization*);      // nvmlDeviceGetUtilizationRates
    NvmlReturn (*memory)(NvmlDevice, NvmlMemory*);                // nvmlDeviceGetMemoryInfo
    NvmlReturn (*power_mw)(NvmlDevice, unsigned int*);            // nvmlDeviceGetPowerUsage
    NvmlReturn (*clock_mhz)(NvmlDevice, int, unsigned int*);      // nvmlDeviceGetClockInfo
    NvmlReturn (*temperature_c)(NvmlDevice, int, unsigned int*);  // nvmlDeviceGetTemperature
    NvmlReturn (*energy_mj)(NvmlDevice,
                            unsigned long long*);  // nvmlDeviceGetTotalEnergyConsumption
    NvmlReturn (*throttle_reasons)(
        NvmlDevice, unsigned long long*);  // nvmlDeviceGetCurrentClocksThrottleReasons
};

struct DlCloser {
    void operator()(void* handle) const noexcept;
};

// libnvidia-ml loaded with dlopen and initialised; shut down and closed on destruction.
class NvmlLibrary {
  public:
    // nullptr when the library is missing, lacks a function or fails to initialise;
    // `why_not` then says which.
    static std::unique_ptr<NvmlLibrary> open(const std::string& library, std::string& why_not);
    ~NvmlLibrary();
    NvmlLibrary(const NvmlLibrary&) = delete;
    NvmlLibrary& operator=(const NvmlLibrary&) = delete;

    [[nodiscard]] const NvmlFunctions& functions() const { return functions_; }
    [[nodiscard]] std::string error_text(NvmlReturn status) const;

  private:
    NvmlLibrary(std::unique_ptr<void, DlCloser> handle, NvmlFunctions functions);

    std::unique_ptr<void, DlCloser> handle_;
    NvmlFunctions functions_;
};

}  // namespace trainscope::profiler::detail
