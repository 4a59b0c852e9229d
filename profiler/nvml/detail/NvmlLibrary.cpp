#include "profiler/nvml/detail/NvmlLibrary.hpp"

#include <dlfcn.h>

#include "profiler/nvml/NvmlError.hpp"

namespace trainscope::profiler::detail {

void DlCloser::operator()(void* handle) const noexcept {
    if (handle != nullptr)
        dlclose(handle);
}

namespace {

template <typename Function>
bool resolve_one(const NvmlSymbolResolver& resolve, const char* symbol, Function& out) {
    void* address = resolve(symbol);
    if (address == nullptr) {
        out = nullptr;
        return false;
    }
    // dlsym returns object pointers; POSIX guarantees the conversion to a function
    // pointer works, and this is the way to spell it without a C-style cast.
    out = reinterpret_cast<Function>(address);
    return true;
}

template <typename Function>
void resolve_optional(const NvmlSymbolResolver& resolve, const char* symbol, const char* metrics,
                      Function& out, NvmlResolution& result) {
    if (!resolve_one(resolve, symbol, out))
        result.missing_metrics.push_back(std::string(metrics) + " (" + symbol + ")");
}

}  // namespace

NvmlResolution resolve_nvml_functions(const NvmlSymbolResolver& resolve, NvmlFunctions& f) {
    NvmlResolution result;
    f = NvmlFunctions{};
    const auto required = [&](const char* symbol, auto& out) {
        if (result.why_not.empty() && !resolve_one(resolve, symbol, out))
            result.why_not = std::string("symbol ") + symbol + " not found";
    };
    required("nvmlInit_v2", f.init);
    required("nvmlShutdown", f.shutdown);
    required("nvmlErrorString", f.error_string);
    required("nvmlDeviceGetCount_v2", f.device_count);
    required("nvmlDeviceGetHandleByIndex_v2", f.handle_by_index);
    required("nvmlDeviceGetHandleByPciBusId_v2", f.handle_by_pci_bus_id);
    if (!result.why_not.empty()) {
        f = NvmlFunctions{};
        return result;
    }
    resolve_optional(resolve, "nvmlDeviceGetUtilizationRates",
                     "gpu_utilization, memory_utilization", f.utilization, result);
    resolve_optional(resolve, "nvmlDeviceGetMemoryInfo", "memory_used", f.memory, result);
    resolve_optional(resolve, "nvmlDeviceGetPowerUsage", "power", f.power_mw, result);
    resolve_optional(resolve, "nvmlDeviceGetClockInfo", "sm_clock, memory_clock", f.clock_mhz,
                     result);
    resolve_optional(resolve, "nvmlDeviceGetTemperature", "temperature", f.temperature_c, result);
    resolve_optional(resolve, "nvmlDeviceGetTotalEnergyConsumption", "energy", f.energy_mj, result);
    // The R550 NVML reference documents the new name and lists the old one as deprecated
    // (same signature, same bits); the R525 reference has only the old name.
    if (resolve_one(resolve, "nvmlDeviceGetCurrentClocksEventReasons", f.clocks_event_reasons)) {
        result.clocks_event_reasons_symbol = "nvmlDeviceGetCurrentClocksEventReasons";
    } else if (resolve_one(resolve, "nvmlDeviceGetCurrentClocksThrottleReasons",
                           f.clocks_event_reasons)) {
        result.clocks_event_reasons_symbol = "nvmlDeviceGetCurrentClocksThrottleReasons";
    } else {
        result.missing_metrics.emplace_back(
            "clocks_throttle_reasons (nvmlDeviceGetCurrentClocksEventReasons, "
            "nvmlDeviceGetCurrentClocksThrottleReasons)");
    }
    result.ok = true;
    return result;
}

std::unique_ptr<NvmlLibrary> NvmlLibrary::open(const std::string& library, std::string& why_not) {
    std::unique_ptr<void, DlCloser> handle(dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL));
    if (!handle) {
        const char* error = dlerror();
        why_not =
            "cannot load " + library + ": " + (error != nullptr ? error : "unknown dlopen error");
        return nullptr;
    }
    NvmlFunctions f{};
    void* h = handle.get();
    NvmlResolution resolution =
        resolve_nvml_functions([h](const char* symbol) { return dlsym(h, symbol); }, f);
    if (!resolution.ok) {
        why_not = library + ": " + resolution.why_not;
        return nullptr;
    }
    use_nvml_error_string(f.error_string);
    try {
        TS_NVML_CHECK(f.init());
    } catch (const NvmlError& error) {
        why_not = error.what();
        forget_nvml_error_string(f.error_string);
        return nullptr;
    }
    return std::unique_ptr<NvmlLibrary>(
        new NvmlLibrary(std::move(handle), f, std::move(resolution.missing_metrics)));
}

NvmlLibrary::NvmlLibrary(std::unique_ptr<void, DlCloser> handle, NvmlFunctions functions,
                         std::vector<std::string> missing_metrics)
    : handle_(std::move(handle)),
      functions_(functions),
      missing_metrics_(std::move(missing_metrics)) {}

NvmlLibrary::~NvmlLibrary() {
    TS_NVML_CHECK_NOEXCEPT(functions_.shutdown());
    forget_nvml_error_string(functions_.error_string);  // before handle_ closes the library
}

}  // namespace trainscope::profiler::detail
